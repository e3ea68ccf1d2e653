#!/usr/bin/env python3
"""How long a worker's CUDA start costs (cuInit, primary context, stream) alone and with
several processes starting at once, with and without CUDA_DEVICE_MAX_CONNECTIONS=1.
The runner's floor is the number of worker processes times this cost when the driver
serialises context creation. usage: python3 ci/probes/context_cost.py [ROUNDS]"""
import ctypes, os, subprocess, sys, time, json

CHILD = r'''
import ctypes, time, json, os
t0 = time.perf_counter()
cu = ctypes.CDLL("libcuda.so.1")
assert cu.cuInit(0) == 0
t1 = time.perf_counter()
dev = ctypes.c_int(); cu.cuDeviceGet(ctypes.byref(dev), 0)
ctx = ctypes.c_void_p()
assert cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev) == 0
cu.cuCtxSetCurrent(ctx)
t2 = time.perf_counter()
st = ctypes.c_void_p(); assert cu.cuStreamCreate(ctypes.byref(st), 1) == 0
p = ctypes.c_uint64(); assert cu.cuMemAlloc_v2(ctypes.byref(p), 1 << 20) == 0
cu.cuCtxSynchronize()
t3 = time.perf_counter()
print(json.dumps({"init": t1 - t0, "ctx": t2 - t1, "stream_alloc": t3 - t2}), flush=True)
os._exit(0)
'''

def batch(n, parallel, env):
    t0 = time.perf_counter()
    procs, out = [], []
    for i in range(n):
        procs.append(subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, env=env))
        if not parallel:
            out.append(json.loads(procs[-1].communicate()[0]))
    if parallel:
        out = [json.loads(p.communicate()[0]) for p in procs]
    wall = time.perf_counter() - t0
    med = lambda k: sorted(o[k] for o in out)[len(out) // 2]
    return wall, med("init"), med("ctx"), med("stream_alloc")

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 16
for label, extra in (("default", {}), ("CUDA_DEVICE_MAX_CONNECTIONS=1", {"CUDA_DEVICE_MAX_CONNECTIONS": "1"})):
    env = dict(os.environ, **extra)
    for parallel in (False, True):
        wall, i, c, s = batch(rounds, parallel, env)
        print("%-32s %-10s %2d processes: wall %.2f s (%.3f s each); median cuInit %.3f, context %.3f, stream+alloc %.3f"
              % (label, "parallel" if parallel else "one by one", rounds, wall, wall / rounds, i, c, s), flush=True)
