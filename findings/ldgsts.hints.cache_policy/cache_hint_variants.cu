// cp.async with .L2::cache_hint and a createpolicy.fractional policy: a matrix of kernels
// between the suite's faulting kernel (cuconform fixtures/ldgsts/ldgsts_kernels.cu,
// hint_body: 32 threads, each fills its 16-KiB-array slot with 0xAA, makes the policy, issues
// one cp.async, cp.async.wait_all, reads its slot back byte by byte) and a minimal kernel that
// ran correctly on an H100 (128 threads, commit + wait_group 0, __syncthreads, vector reads).
// Each kernel v_<name> is one variant; v_<name>_{threads,bytes,pol} tell the host its shape.
// Every variant copies bytes unchanged: a cache hint must never change the data.

#include <type_traits>

enum Pol { EVICT_LAST, EXAMPLE, EVICT_FIRST };  // EXAMPLE: the PTX ISA's createpolicy example
enum PolSrc {
  INLINE,     // asm volatile createpolicy right before each copy (the suite)
  INLINE_NV,  // the same, non-volatile asm (the compiler may fold or move it)
  HOISTED,    // createpolicy once per thread, before the copy loop
  PARAM,      // the policy value as a kernel parameter (the host got it from createpolicy)
  PERTHREAD   // the policy value loaded per thread from global memory (a non-uniform register)
};
enum Smem { STATIC16K, FIT };              // __shared__ char slot[16384] (suite) or just big enough
enum Wait { WAIT_ALL, COMMIT_WAIT0 };      // cp.async.wait_all (suite) or commit_group + wait_group 0
enum Read { BYTES_OWN, SYNC_VECTOR };      // own slot byte by byte (suite), or __syncthreads + vector loads
enum Hint { CACHE_HINT, NO_HINT };

struct Suite {
  static constexpr int threads = 32, size = 16, copies = 1;
  static constexpr bool cg = false, src_size = false, poison = true, unroll = false;
  static constexpr Pol pol = EVICT_LAST;
  static constexpr PolSrc polsrc = INLINE;
  static constexpr Smem smem = STATIC16K;
  static constexpr Wait wait = WAIT_ALL;
  static constexpr Read read = BYTES_OWN;
  static constexpr Hint hint = CACHE_HINT;
};
struct Minimal : Suite {
  static constexpr int threads = 128;
  static constexpr bool poison = false;
  static constexpr Smem smem = FIT;
  static constexpr Wait wait = COMMIT_WAIT0;
  static constexpr Read read = SYNC_VECTOR;
};

__device__ __forceinline__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

template <Pol P, bool VOLATILE>
__device__ __forceinline__ unsigned long long make_policy() {
  unsigned long long pol;
#define POLICY_ASM(text)                                   \
  if constexpr (VOLATILE) asm volatile(text : "=l"(pol));  \
  else asm(text : "=l"(pol));
  if constexpr (P == EVICT_LAST) { POLICY_ASM("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;") }
  if constexpr (P == EXAMPLE) { POLICY_ASM("createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %0, 0.25;") }
  if constexpr (P == EVICT_FIRST) { POLICY_ASM("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;") }
#undef POLICY_ASM
  return pol;
}

// The host asks for the three policy values (for the PARAM and PERTHREAD variants).
extern "C" __global__ void make_policies(unsigned long long* out) {
  out[EVICT_LAST] = make_policy<EVICT_LAST, true>();
  out[EXAMPLE] = make_policy<EXAMPLE, true>();
  out[EVICT_FIRST] = make_policy<EVICT_FIRST, true>();
}

template <class C>
__device__ __forceinline__ void copy(unsigned dst, const void* src, unsigned long long pol) {
  constexpr int S = C::size;
  if constexpr (C::hint == NO_HINT) {
    if constexpr (C::cg) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
    else asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(S) : "memory");
  } else if constexpr (C::src_size) {  // src-size = cp-size: the same bytes, the other instruction form
    if constexpr (C::cg)
      asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2, %3;" ::"r"(dst), "l"(src), "r"(16), "l"(pol) : "memory");
    else
      asm volatile("cp.async.ca.shared.global.L2::cache_hint [%0], [%1], %2, %3, %4;" ::"r"(dst), "l"(src), "n"(S), "r"(S), "l"(pol)
                   : "memory");
  } else {
    if constexpr (C::cg)
      asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "l"(pol) : "memory");
    else
      asm volatile("cp.async.ca.shared.global.L2::cache_hint [%0], [%1], %2, %3;" ::"r"(dst), "l"(src), "n"(S), "l"(pol) : "memory");
  }
}

template <class C>
__device__ __forceinline__ unsigned long long policy(unsigned long long pol_param, const unsigned long long* pols) {
  if constexpr (C::polsrc == PARAM) return pol_param;
  else if constexpr (C::polsrc == PERTHREAD) return pols[threadIdx.x];
  else return make_policy<C::pol, C::polsrc != INLINE_NV>();
}

template <class C>
__device__ __forceinline__ void copy_i(int i, char* mine, const char* from, unsigned long long& pol, unsigned long long pol_param,
                                       const unsigned long long* pols) {
  if constexpr (C::polsrc == INLINE || C::polsrc == INLINE_NV) pol = policy<C>(pol_param, pols);
  copy<C>(smem_addr(mine + i * C::size), from + i * C::size, pol);
}

template <class C>
__device__ void body(const char* src, char* out, unsigned long long pol_param, const unsigned long long* pols) {
  constexpr int SLOT = C::size * C::copies;  // bytes per thread
  __shared__ __align__(16) char slot[C::smem == STATIC16K ? 1024 * 16 : C::threads * SLOT];
  char* mine = slot + threadIdx.x * SLOT;
  if constexpr (C::poison)
    for (int b = 0; b < SLOT; ++b) mine[b] = static_cast<char>(0xAA);
  const char* from = src + threadIdx.x * SLOT;
  unsigned long long pol = 0;
  if constexpr (C::polsrc != INLINE && C::polsrc != INLINE_NV) pol = policy<C>(pol_param, pols);
  if constexpr (C::unroll) {
#pragma unroll
    for (int i = 0; i < C::copies; ++i) copy_i<C>(i, mine, from, pol, pol_param, pols);
  } else {
#pragma unroll 1
    for (int i = 0; i < C::copies; ++i) copy_i<C>(i, mine, from, pol, pol_param, pols);
  }
  if constexpr (C::wait == WAIT_ALL) asm volatile("cp.async.wait_all;" ::: "memory");
  else asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
  char* dst = out + threadIdx.x * SLOT;
  if constexpr (C::read == BYTES_OWN) {
    for (int b = 0; b < SLOT; ++b) dst[b] = mine[b];
  } else {
    __syncthreads();
    using V = typename std::conditional<C::size == 16, uint4, typename std::conditional<C::size == 8, uint2, unsigned>::type>::type;
    for (int i = 0; i < C::copies; ++i) reinterpret_cast<V*>(dst)[i] = reinterpret_cast<const V*>(mine)[i];
  }
}

#define VARIANT(name, C)                                                                                              \
  extern "C" __device__ int v_##name##_threads = C::threads;                                                         \
  extern "C" __device__ int v_##name##_bytes = C::threads * C::size * C::copies;                                     \
  extern "C" __device__ int v_##name##_pol = C::pol;                                                                 \
  extern "C" __global__ void v_##name(const char* src, char* out, unsigned long long pol, const unsigned long long* pols) { \
    body<C>(src, out, pol, pols);                                                                                    \
  }

// ---- A. The suite's shape for every policy kind and copy form (the suite ran ca4, ca16, cg16).
#define OPS(P, p)                                                                  \
  struct S_##p##_ca4 : Suite { static constexpr Pol pol = P; static constexpr int size = 4; };   \
  struct S_##p##_ca8 : Suite { static constexpr Pol pol = P; static constexpr int size = 8; };   \
  struct S_##p##_ca16 : Suite { static constexpr Pol pol = P; };                                  \
  struct S_##p##_cg16 : Suite { static constexpr Pol pol = P; static constexpr bool cg = true; }; \
  VARIANT(S_##p##_ca4, S_##p##_ca4) VARIANT(S_##p##_ca8, S_##p##_ca8) VARIANT(S_##p##_ca16, S_##p##_ca16) VARIANT(S_##p##_cg16, S_##p##_cg16)
OPS(EVICT_LAST, el)
OPS(EXAMPLE, ex)
OPS(EVICT_FIRST, ef)

// ---- B. The suite's shape (evict_last, ca16) with ONE thing changed towards the minimal kernel.
#define ONE(name, base, member) struct name : base { member; }; VARIANT(name, name)
ONE(S_nohint, Suite, static constexpr Hint hint = NO_HINT)            // control: no cache_hint at all
ONE(S_t128, Suite, static constexpr int threads = 128)
ONE(S_nopoison, Suite, static constexpr bool poison = false)
ONE(S_smemfit, Suite, static constexpr Smem smem = FIT)
ONE(S_commit, Suite, static constexpr Wait wait = COMMIT_WAIT0)
ONE(S_syncread, Suite, static constexpr Read read = SYNC_VECTOR)
ONE(S_polnv, Suite, static constexpr PolSrc polsrc = INLINE_NV)
ONE(S_polparam, Suite, static constexpr PolSrc polsrc = PARAM)
ONE(S_polreg, Suite, static constexpr PolSrc polsrc = PERTHREAD)
ONE(S_srcsize, Suite, static constexpr bool src_size = true)
ONE(S_cg_srcsize, S_el_cg16, static constexpr bool src_size = true)
// Loops: 4 copies per thread, the policy made per copy, hoisted, or a parameter; rolled or unrolled.
ONE(S_loop4, Suite, static constexpr int copies = 4)
struct S_loop4_hoist : S_loop4 { static constexpr PolSrc polsrc = HOISTED; };
VARIANT(S_loop4_hoist, S_loop4_hoist)
struct S_loop4_param : S_loop4 { static constexpr PolSrc polsrc = PARAM; };
VARIANT(S_loop4_param, S_loop4_param)
struct S_loop4_unroll : S_loop4 { static constexpr bool unroll = true; };
VARIANT(S_loop4_unroll, S_loop4_unroll)
struct S_loop4_unroll_hoist : S_loop4_unroll { static constexpr PolSrc polsrc = HOISTED; };
VARIANT(S_loop4_unroll_hoist, S_loop4_unroll_hoist)

// ---- C. The minimal kernel (ran correctly on an H100), and it with ONE thing changed towards the suite.
VARIANT(M, Minimal)
ONE(M_t32, Minimal, static constexpr int threads = 32)
ONE(M_poison, Minimal, static constexpr bool poison = true)
ONE(M_smem16k, Minimal, static constexpr Smem smem = STATIC16K)
ONE(M_waitall, Minimal, static constexpr Wait wait = WAIT_ALL)
ONE(M_byteread, Minimal, static constexpr Read read = BYTES_OWN)
ONE(M_ca4, Minimal, static constexpr int size = 4)
ONE(M_cg16, Minimal, static constexpr bool cg = true)
ONE(M_ex, Minimal, static constexpr Pol pol = EXAMPLE)
ONE(M_ef, Minimal, static constexpr Pol pol = EVICT_FIRST)
ONE(M_polparam, Minimal, static constexpr PolSrc polsrc = PARAM)
ONE(M_loop4, Minimal, static constexpr int copies = 4)

// ---- D. The suite's control: the same policy on a plain ld.global.L2::cache_hint (passed in the suite).
extern "C" __device__ int v_ctl_ld4_threads = 32;
extern "C" __device__ int v_ctl_ld4_bytes = 32 * 4;
extern "C" __device__ int v_ctl_ld4_pol = EVICT_LAST;
extern "C" __global__ void v_ctl_ld4(const char* src, char* out, unsigned long long, const unsigned long long*) {
  const unsigned long long pol = make_policy<EVICT_LAST, true>();
  unsigned v;
  asm volatile("ld.global.L2::cache_hint.u32 %0, [%1], %2;" : "=r"(v) : "l"(reinterpret_cast<const unsigned*>(src) + threadIdx.x), "l"(pol) : "memory");
  reinterpret_cast<unsigned*>(out)[threadIdx.x] = v;
}

// ---- E. The suite's kernels verbatim (hint_copy / hint_body of ldgsts_kernels.cu, helpers
// inlined): the 9 cases that faulted on the H200. Two parameters, as in the suite.
namespace verbatim {
template <int SIZE, bool CG, int HINT>
__device__ void hint_copy(void* dst, const void* src) {
  const unsigned d = smem_addr(dst);
  // The suite's make_policy<HINT>: the same asm volatile createpolicy as ::make_policy's
  // (HINT 0, 1, 2 = EVICT_LAST, EXAMPLE, EVICT_FIRST).
  const unsigned long long pol = ::make_policy<static_cast<Pol>(HINT), true>();
  if constexpr (CG)
    asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "l"(pol) : "memory");
  else
    asm volatile("cp.async.ca.shared.global.L2::cache_hint [%0], [%1], %2, %3;" ::"r"(d), "l"(src), "n"(SIZE), "l"(pol)
                 : "memory");
}
template <int SIZE, bool CG, int HINT>
__device__ void hint_body(const char* src, char* out) {
  __shared__ __align__(16) char slot[1024 * 16];
  char* mine = slot + threadIdx.x * SIZE;
  for (int b = 0; b < SIZE; ++b) mine[b] = static_cast<char>(0xAA);
  hint_copy<SIZE, CG, HINT>(mine, src + threadIdx.x * SIZE);
  asm volatile("cp.async.wait_all;" ::: "memory");
  for (int b = 0; b < SIZE; ++b) out[threadIdx.x * SIZE + b] = mine[b];
}
}  // namespace verbatim

#define SUITE(p, HINT, op, SIZE, CG)                                                  \
  extern "C" __device__ int v_X_##p##_##op##_threads = 32;                            \
  extern "C" __device__ int v_X_##p##_##op##_bytes = 32 * SIZE;                       \
  extern "C" __device__ int v_X_##p##_##op##_pol = HINT;                              \
  extern "C" __global__ void v_X_##p##_##op(const char* s, char* o) { verbatim::hint_body<SIZE, CG, HINT>(s, o); }
#define SUITE_OPS(p, HINT) SUITE(p, HINT, ca4, 4, false) SUITE(p, HINT, ca16, 16, false) SUITE(p, HINT, cg16, 16, true)
SUITE_OPS(el, 0)
SUITE_OPS(ex, 1)
SUITE_OPS(ef, 2)
