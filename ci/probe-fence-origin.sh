#!/usr/bin/env bash
# Where does the FENCE.VIEW.ASYNC.S that tma_tensor_load keeps without its fence.proxy.async come
# from? Run on a machine with ptxas and cuobjdump (the GPU machine; no GPU is used):
#
#   bash ci/probe-fence-origin.sh OUTDIR [BUILD_DIR]
#
# It assembles, with ptxas -arch=sm_90a, (a) the build's PTX of tma_tensor_load and of the other
# kernels whose SASS showed FENCE.VIEW.ASYNC.S or not, with constructs deleted from the kernel's
# PTX one at a time, and (b) tiny kernels holding one construct each; then counts
# FENCE.VIEW.ASYNC.S, MEMBAR.ALL.CTA and SYNCS.EXCH.64 (mbarrier.init) in each and says whether a
# FENCE.VIEW.ASYNC.S sits right before a SYNCS.EXCH.64. Writes OUTDIR/fence-origin.md (the table,
# also printed), OUTDIR/sass/<variant>.sass and OUTDIR/ptx/<variant>.ptx.
#
# The prediction it tests (proxy.sass.mbarrier_init_async_fence): ptxas precedes the
# SYNCS.EXCH.64 of an mbarrier.init with a FENCE.VIEW.ASYNC.S when a generic-proxy write to
# shared memory may reach the barrier object before it (tma_tensor_load's poison stores through
# a pointer into dynamic shared memory; a byte-array barrier object), and leaves it out when none
# can (a .u64 object and no earlier shared store): tiny/init_only 0, tiny/store_dyn_then_init 1,
# tensor_load less fence.proxy.async 1, less fence.proxy.async and mbarrier.init 0.
set -euo pipefail
out=${1:?usage: ci/probe-fence-origin.sh OUTDIR [BUILD_DIR]}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-}
if [ -z "$build" ]; then
  for b in "$root/build-gpu" "$root/build"; do [ -d "$b/fixtures/kernels" ] && build=$b && break; done
fi
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
for t in "$ptxas" "$cuobjdump"; do [ -x "$t" ] || { echo "probe-fence-origin: $t not found" >&2; exit 2; }; done
mkdir -p "$out/ptx" "$out/sass" "$out/src"

# The module PTX nvcc made for compute_90a (the build's, else compiled here with the build's flags).
module_ptx() {
  local stem=$1 dir=$2 f
  f="$build/fixtures/kernels/$stem.keep/$stem.compute_90a.ptx"
  if [ -n "$build" ] && [ -f "$f" ]; then cp "$f" "$out/src/$stem.ptx"
  else "$nvcc" -ptx -arch=sm_90a -std=c++17 -O3 -lineinfo -I"$root" "$root/fixtures/$dir/$stem.cu" -o "$out/src/$stem.ptx"; fi
}
module_ptx tma_tensor_kernels tma
module_ptx pipeline_api_sass pipeline_api
module_ptx async_group_arrive async_group
module_ptx tensor_map_kernels tma
module_ptx tma_bulk_kernels tma

python3 - "$out" "$ptxas" "$cuobjdump" <<'PY'
import os, re, subprocess, sys
out, ptxas, cuobjdump = sys.argv[1:4]

def kernel_variant(stem, kernel, delete):
    """The module PTX with the kernel's instruction lines matching `delete` commented out
    (the same rule as fixtures/common/sass_listing.cpp read_twin_sass)."""
    lines = open(f"{out}/src/{stem}.ptx").read().split("\n")
    entry = re.compile(r"^\.(visible\s+)?\.entry\s+" + kernel + r"\s*\(")
    b = next(i for i, l in enumerate(lines) if entry.search(l))
    e = next(j for j in range(b + 1, len(lines)) if lines[j] == "}")
    n = 0
    if delete:
        skip, c = re.compile(r"^\s*(//|\.loc\b|\.reg\b|$)"), re.compile(delete)
        for i in range(b + 1, e):
            if not skip.search(lines[i]) and c.search(lines[i]):
                lines[i] = "\t// deleted: " + lines[i].lstrip(" \t")
                n += 1
    return "\n".join(lines), n

HEAD = ".version 8.0\n.target sm_90a\n.address_size 64\n.extern .shared .align 16 .b8 dyn[];\n"
def tiny(pre="", post="", init=True, bar=".u64 bar", extra=""):
    body = f"""
.visible .entry probe(.param .u64 out)
{{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 8 {bar};
  .shared .align 16 .b8 buf[256];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  shl.b32 %r5, %r1, 2;
  mov.u32 %r6, buf;
  add.u32 %r6, %r6, %r5;
  mov.u32 %r7, dyn;
  add.u32 %r7, %r7, %r5;
  mov.u32 %r2, bar;
{pre}
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra SKIP;
{"  mbarrier.init.shared::cta.b64 [%r2], 1;" if init else ""}
SKIP:
{post}
  bar.sync 0;
{"  mbarrier.arrive.shared::cta.b64 %rd2, [%r2];" if init else "  ld.shared.u32 %r8, [%r6]; cvt.u64.u32 %rd2, %r8;"}
  st.global.u64 [%rd1], %rd2;
{extra}
  ret;
}}
"""
    return HEAD + body, 1 if init else 0

ST_BUF = "  st.shared.u32 [%r6], %r1;"
ST_DYN = "  st.shared.u32 [%r7], %r1;"
ST_BAR = "  mov.u64 %rd3, 0;\n  st.shared.u64 [%r2], %rd3;"
FPA = "  fence.proxy.async.shared::cta;"
FMI = "  fence.mbarrier_init.release.cluster;"

variants = []  # (name, what, ptx, kernel, ptxas options)
def real(name, stem, kernel, delete, what):
    ptx, n = kernel_variant(stem, kernel, delete)
    variants.append((name, f"{what} ({n} PTX line(s) deleted)" if delete else what, ptx, kernel, []))
real("tensor_load", "tma_tensor_kernels", "tma_tensor_load", None, "tma_tensor_load as built")
real("tensor_load-fpa", "tma_tensor_kernels", "tma_tensor_load", r"fence\.proxy\.async", "less fence.proxy.async")
real("tensor_load-fpa-init", "tma_tensor_kernels", "tma_tensor_load", r"fence\.proxy\.async|mbarrier\.init", "less fence.proxy.async and mbarrier.init")
real("tensor_load-fpa-poison", "tma_tensor_kernels", "tma_tensor_load", r"fence\.proxy\.async|st\.shared", "less fence.proxy.async and the poison st.shared")
real("tensor_load-fpa-tma", "tma_tensor_kernels", "tma_tensor_load", r"fence\.proxy\.async|cp\.async\.bulk\.tensor", "less fence.proxy.async and the tensor loads (UTMALDG)")
real("tensor_load-init", "tma_tensor_kernels", "tma_tensor_load", r"mbarrier\.init", "less mbarrier.init (fence kept)")
real("tensor_store", "tma_tensor_kernels", "tma_tensor_store", None, "tma_tensor_store as built (no mbarrier)")
real("tensor_store-fpa", "tma_tensor_kernels", "tma_tensor_store", r"fence\.proxy\.async", "tma_tensor_store less fence.proxy.async")
real("bulk_roundtrip", "tma_bulk_kernels", "tma_bulk_roundtrip", None, "tma_bulk_roundtrip as built")
real("bulk_roundtrip-fpa", "tma_bulk_kernels", "tma_bulk_roundtrip", r"fence\.proxy\.async", "tma_bulk_roundtrip less fence.proxy.async")
real("barrier_aligned4", "pipeline_api_sass", "pipeline_api_sass_barrier_aligned4", None, "cuda::barrier + memcpy_async (no fence in PTX; .b8[8] object)")
real("barrier_aligned4-init", "pipeline_api_sass", "pipeline_api_sass_barrier_aligned4", r"mbarrier\.init", "... less mbarrier.init")
real("arrive_inc", "async_group_arrive", "async_group_sass_arrive_inc", None, "mbarrier.init (.u64) then cp.async, no earlier shared store")
real("tmap_load_global", "tensor_map_kernels", "tensor_map_load_global_gpu", None, "mbarrier.init (.u64) then tensor loads, no earlier shared store")
for name, what, args in [
    ("tiny/init_only", "mbarrier.init of a .u64 object, nothing before it", {}),
    ("tiny/store_buf_then_init", "st.shared to another variable, then init", {"pre": ST_BUF}),
    ("tiny/store_dyn_then_init", "st.shared through a pointer into dynamic smem, then init", {"pre": ST_DYN}),
    ("tiny/store_bar_then_init", "st.shared to the barrier object itself, then init", {"pre": ST_BAR}),
    ("tiny/init_then_store_dyn", "init, then st.shared through a dynamic pointer", {"post": ST_DYN}),
    ("tiny/init_b8_object", "init of a .b8[8] object, nothing before it", {"bar": ".b8 bar[8]"}),
    ("tiny/init_fence_mbarrier_init", "init + fence.mbarrier_init.release.cluster", {"post": FMI}),
    ("tiny/store_dyn_init_fpa", "st.shared (dyn), init, fence.proxy.async", {"pre": ST_DYN, "post": FPA}),
    ("tiny/store_dyn_fpa_no_init", "st.shared (dyn), fence.proxy.async, no mbarrier", {"pre": ST_DYN, "post": FPA, "init": False}),
    ("tiny/store_dyn_no_init", "st.shared (dyn), no fence, no mbarrier", {"pre": ST_DYN, "init": False}),
]:
    ptx, _ = tiny(**args)
    variants.append((name, what, ptx, "probe", []))
ptx, _ = tiny(pre=ST_DYN)
variants.append(("tiny/store_dyn_then_init-O0", "st.shared (dyn) then init, ptxas -O0", ptx, "probe", ["-O0"]))
ptx, _ = tiny()
variants.append(("tiny/init_only-O0", "init only, ptxas -O0", ptx, "probe", ["-O0"]))

def sass_of(name, ptx, opts):
    safe = name.replace("/", "_")
    p, cub = f"{out}/ptx/{safe}.ptx", f"{out}/ptx/{safe}.cubin"
    open(p, "w").write(ptx)
    r = subprocess.run([ptxas, "-arch=sm_90a", *opts, p, "-o", cub], capture_output=True, text=True)
    if r.returncode:
        return None, "ptxas: " + (r.stderr or r.stdout).strip().splitlines()[0]
    d = subprocess.run([cuobjdump, "-sass", cub], capture_output=True, text=True)
    open(f"{out}/sass/{safe}.sass", "w").write(d.stdout)
    return d.stdout, ""

op_re = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[0-9T]\s+)?([A-Z][A-Z0-9_.]*)")
fn_re = re.compile(r"^\s*Function\s*:\s*(\S+)")
rows = []
for name, what, ptx, kernel, opts in variants:
    text, err = sass_of(name, ptx, opts)
    if text is None:
        rows.append((name, what, "-", "-", "-", "-", err)); continue
    ops, cur = [], None
    for line in text.splitlines():
        m = fn_re.search(line)
        if m: cur = m.group(1); continue
        m = op_re.search(line)
        if m and cur == kernel: ops.append(m.group(1))
    fence = sum(o == "FENCE.VIEW.ASYNC.S" for o in ops)
    membar = sum(o == "MEMBAR.ALL.CTA" for o in ops)
    exch = sum(o.startswith("SYNCS.EXCH.64") for o in ops)
    skip = re.compile(r"^(NOP|UMOV|MOV|IMAD\.MOV|S2UR|UPRMT|ULEA|UIADD3|R2UR|ULOP3|USHF|UISETP|MOV32I|IMAD\.U32|HFMA2\.MMA)")
    before = 0
    for i, o in enumerate(ops):
        if o.startswith("SYNCS.EXCH.64"):
            j = i - 1
            while j >= 0 and skip.match(ops[j]): j -= 1
            before += j >= 0 and ops[j] == "FENCE.VIEW.ASYNC.S"
    ctx = []
    for i, o in enumerate(ops):
        if o == "FENCE.VIEW.ASYNC.S":
            ctx.append(" ".join(x for x in ops[max(0, i - 3):i + 3] if not skip.match(x)))
    rows.append((name, what, fence, membar, exch, before, " | ".join(ctx)))

md = ["# Where FENCE.VIEW.ASYNC.S comes from (ptxas -arch=sm_90a)", "",
      f"ptxas: `{subprocess.run([ptxas, '--version'], capture_output=True, text=True).stdout.strip().splitlines()[-1]}`", "",
      "| variant | what | FENCE.VIEW.ASYNC.S | MEMBAR.ALL.CTA | SYNCS.EXCH.64 (init) | FENCE right before an init | around each FENCE (memory/sync ops) |",
      "|---|---|---:|---:|---:|---:|---|"]
for r in rows:
    md.append("| " + " | ".join(str(x).replace("|", "/") for x in r) + " |")
text = "\n".join(md) + "\n"
open(f"{out}/fence-origin.md", "w").write(text)
print(text)
PY
