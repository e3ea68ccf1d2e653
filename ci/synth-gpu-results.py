#!/usr/bin/env python3
"""Results files of made-up GPUs from a committed baseline, for the fleet and metrics tests.

usage: ci/synth-gpu-results.py BASELINE.json.gz OUTDIR NODE GPUS [PLANT_GPU]

Writes OUTDIR/results.gpuI.json for I in 0..GPUS-1: the baseline as GPU I of NODE (its own uuid,
ordinal and node), with every failure of the baseline turned into a pass, so that what is planted
is the only failure; GPU PLANT_GPU (if given) fails the baseline's first passing positive case (a
documented rule). Prints that case's name. Also OUTDIR/expect.gpuI.json: the counts by verdict,
uuid, suite version, driver and planted case, for the tests to compare with.
"""
import copy
import gzip
import json
import sys


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    base = json.load(gzip.open(sys.argv[1]))
    out, node, gpus = sys.argv[2], sys.argv[3], int(sys.argv[4])
    plant = int(sys.argv[5]) if len(sys.argv) == 6 else -1
    for c in base["cases"]:
        if c["verdict"] in ("fail", "timeout", "crash", "flake"):
            c["verdict"] = "pass"
    planted = next(c["name"] for c in base["cases"] if c["verdict"] == "pass" and c["kind"] == "positive")
    for i in range(gpus):
        j = copy.deepcopy(base)
        j["device"].update(ordinal=i, uuid="GPU-%08x-1111-2222-3333-444444444444" % (0xabc0 + i), node=node,
                           pci_bus_id="0000:%02x:00.0" % (0x10 + i))
        j["run"]["host"] = node
        if i == plant:
            c = next(c for c in j["cases"] if c["name"] == planted)
            c["verdict"], c["reason"] = "fail", "planted by the test"
        counts = {}
        for c in j["cases"]:
            counts[c["verdict"]] = counts.get(c["verdict"], 0) + 1
        j["summary"] = dict(total=len(j["cases"]), **counts)
        with open("%s/results.gpu%d.json" % (out, i), "w") as f:
            json.dump(j, f)
        with open("%s/expect.gpu%d.json" % (out, i), "w") as f:
            json.dump(dict(counts=counts, uuid=j["device"]["uuid"], planted=planted if i == plant else "",
                           version=j["suite"]["version"], driver=j["device"]["driver_version"]), f)
    print(planted)


if __name__ == "__main__":
    main()
