// Calibration program (sm_90a only): a warp-specialized GEMM skeleton --
// a producer warp group loads tiles with TMA (cp.async.bulk.tensor) into
// a ring of shared-memory stages guarded by mbarriers, consumer warp
// groups run wgmma.mma_async on them and release the stages; setmaxnreg,
// fences, elect.sync, cluster ids. Compiled only, never run.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ inline uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ inline void mbar_init(uint64_t *b, int n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(b)), "r"(n));
}
__device__ inline void mbar_expect(uint64_t *b, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(b)), "r"(bytes));
}
__device__ inline void mbar_arrive(uint64_t *b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(b)));
}
__device__ inline void mbar_wait(uint64_t *b, int phase) {
  asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra W;\n}" ::"r"(smem(b)), "r"(phase));
}
__device__ inline void tma_load(void *dst, const CUtensorMap *m, uint64_t *b, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%3, %4}], [%2];"
               ::"r"(smem(dst)), "l"(m), "r"(smem(b)), "r"(x), "r"(y) : "memory");
}
__device__ inline uint64_t desc(const void *p) {
  uint64_t a = (smem(p) & 0x3ffff) >> 4;
  return a | (uint64_t(1) << 16) | (uint64_t(64) << 32) | (uint64_t(1) << 62);
}
#endif

constexpr int Stages = 4;
__global__ void __launch_bounds__(384) ws_gemm(const __grid_constant__ CUtensorMap ta,
                                               const __grid_constant__ CUtensorMap tb,
                                               float *c, int k_tiles, int ldc) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(1024) unsigned char sm[];
  auto *A = reinterpret_cast<__half *>(sm);
  auto *B = A + Stages * 64 * 64;
  auto *full = reinterpret_cast<uint64_t *>(B + Stages * 64 * 64);
  auto *empty = full + Stages;
  int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  if (threadIdx.x == 0)
    for (int s = 0; s < Stages; ++s) {
      mbar_init(&full[s], 1);
      mbar_init(&empty[s], 2);
    }
  asm volatile("fence.mbarrier_init.release.cluster;");
  __syncthreads();
  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    unsigned pred;
    asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(pred));
    if (tid < 32 && pred) {
      for (int k = 0; k < k_tiles; ++k) {
        int s = k % Stages;
        mbar_wait(&empty[s], ((k / Stages) & 1) ^ 1);
        mbar_expect(&full[s], 2 * 64 * 64 * 2);
        tma_load(A + s * 64 * 64, &ta, &full[s], k * 64, blockIdx.y * 64);
        tma_load(B + s * 64 * 64, &tb, &full[s], k * 64, blockIdx.x * 64);
      }
    }
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    float d[32];
    for (int i = 0; i < 32; ++i) d[i] = 0.f;
    for (int k = 0; k < k_tiles; ++k) {
      int s = k % Stages;
      mbar_wait(&full[s], (k / Stages) & 1);
      uint64_t da = desc(A + s * 64 * 64 + (wg - 1) * 32 * 64), db = desc(B + s * 64 * 64);
      asm volatile("wgmma.fence.sync.aligned;");
      asm volatile(
          "{\n wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
          "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
          "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31},"
          " %32, %33, 1, 1, 1, 0, 0;\n}"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
            "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
            "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
            "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
            "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]),
            "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
          : "l"(da), "l"(db));
      asm volatile("wgmma.commit_group.sync.aligned;");
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
      if (tid == 0) mbar_arrive(&empty[s]);
    }
    unsigned cta;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(cta));
    for (int i = 0; i < 32; ++i)
      c[(blockIdx.y * 64 + (wg - 1) * 32 + tid / 4) * ldc + blockIdx.x * 64 + i + cta] = d[i];
  }
#endif
}
