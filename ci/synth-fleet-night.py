#!/usr/bin/env python3
"""A synthetic night folder of GPUS GPUs (8 a node) made from a committed baseline, for
ci/bench-fleet.sh: plan.tsv, attempts.tsv, nodes/nodeK/complete.json and results.gpuI.json.gz,
each GPU the baseline with its own uuid, ordinal and host (text replacement: fast at 10,000 GPUs).

usage: ci/synth-fleet-night.py BASELINE.json.gz NIGHT_DIR GPUS
"""
import gzip
import json
import multiprocessing
import os
import sys


TEMPLATE = {}


def set_template(template):
    TEMPLATE.update(template)


def write_node(job):
    """One node's folder: its GPUs' results (the template with their identity) and complete.json."""
    night, n, per = job
    text, uuid, host, ordinal = TEMPLATE["text"], TEMPLATE["uuid"], TEMPLATE["host"], TEMPLATE["ordinal"]
    started, finished = TEMPLATE["started"], TEMPLATE["finished"]
    node = "node%05d" % n
    d = "%s/nodes/%s" % (night, node)
    os.makedirs(d, exist_ok=True)
    for i in range(per):
        t = text.replace(uuid, "GPU-%08x-1111-2222-3333-444444444444" % (8 * n + i))
        t = t.replace('"host": "%s"' % host, '"host": "%s"' % node).replace(ordinal, '"ordinal": %d' % i, 1)
        with gzip.open("%s/results.gpu%d.json.gz" % (d, i), "wt", compresslevel=1) as f:
            f.write(t)
    with open(d + "/complete.json", "w") as f:
        json.dump({"schema": "cuconform-node-done/1", "node": node, "job_id": str(1000 + n), "attempt": 1,
                   "exit": 0, "gpus": per, "visible_devices": ",".join(map(str, range(per))),
                   "started": started, "finished": finished}, f)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    text = gzip.open(sys.argv[1], "rt").read()
    base = json.loads(text)
    uuid, host = base["device"]["uuid"], base["run"]["host"]
    ordinal = '"ordinal": %d' % base["device"]["ordinal"]
    for needle in (uuid, '"host": "%s"' % host, ordinal):
        if needle not in text:
            sys.exit("%s: no %s to replace" % (sys.argv[1], needle))
    night, gpus = sys.argv[2], int(sys.argv[3])
    nodes = (gpus + 7) // 8
    os.makedirs(night + "/nodes", exist_ok=True)
    with open(night + "/plan.tsv", "w") as plan, open(night + "/attempts.tsv", "w") as att:
        for n in range(nodes):
            plan.write("node%05d\t%d\n" % (n, min(8, gpus - 8 * n)))
            att.write("node%05d\t1\t%d\tCOMPLETED\t0\n" % (n, 1000 + n))
    # The nodes side by side, one process a core (compressing is most of the time).
    template = {"text": text, "uuid": uuid, "host": host, "ordinal": ordinal,
                "started": base["run"]["started"], "finished": base["run"]["finished"]}
    jobs = [(night, n, min(8, gpus - 8 * n)) for n in range(nodes)]
    with multiprocessing.Pool(os.cpu_count() or 1, set_template, (template,)) as pool:
        for _ in pool.imap_unordered(write_node, jobs):
            pass


if __name__ == "__main__":
    main()
