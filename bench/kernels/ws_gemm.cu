// ws_gemm.cu - a warp-specialized Hopper GEMM written as CUTLASS 3 writes
// one (issue 17): TMA loads into a ring of shared-memory stages guarded by
// "full" and "empty" mbarriers, one producer warpgroup and two consumer
// warpgroups running wgmma.mma_async on shared-memory descriptors,
// setmaxnreg to move registers from the producer to the consumers.
//
// C[M][N] (f32, row-major) = A[M][K] * B[N][K]^T (f16, K contiguous).
// Each CTA computes a 128 x 64 tile of C; warpgroup 1 rows 0..63 of it,
// warpgroup 2 rows 64..127. K advances 64 per stage (A box 64 x 128,
// B box 64 x 64, 128-byte rows, 128-byte swizzle) through a ring of
// kStages stages, so the producer waits for the consumers to release a
// stage once K exceeds kStages * 64.
//
// Build the PTX the tests and benchmarks use:
//   nvcc -arch=sm_90a -ptx -O3 ws_gemm.cu -o ws_gemm.sm_90a.ptx
#include <cuda.h>
#include <cstdint>

namespace {

constexpr int kStages = 2;
constexpr int kBM = 128, kBN = 64, kBK = 64;
constexpr int kStageBytes = (kBM + kBN) * kBK * 2;

__device__ uint32_t smem(const void *P) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(P));
}

__device__ void mbarInit(uint64_t *B, uint32_t Count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(B)), "r"(Count));
}

__device__ void mbarExpectTx(uint64_t *B, uint32_t Bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(B)),
               "r"(Bytes)
               : "memory");
}

__device__ void mbarArrive(uint64_t *B) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(B)) : "memory");
}

__device__ void mbarWait(uint64_t *B, uint32_t Parity) {
  asm volatile("{\n\t.reg .pred p;\n"
               "WAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
               "@!p bra WAIT_%=;\n}" ::"r"(smem(B)),
               "r"(Parity)
               : "memory");
}

__device__ void tmaLoad2d(void *Dst, const CUtensorMap *Map, int X, int Y, uint64_t *Bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem(Dst)),
               "l"(Map), "r"(X), "r"(Y), "r"(smem(Bar))
               : "memory");
}

/// A K-major shared-memory matrix descriptor with 128-byte swizzle: start
/// address and stride byte offset (1024: eight 128-byte rows) in 16-byte
/// units, leading byte offset 1 (unused for swizzled K-major), layout 1.
__device__ uint64_t descriptor(const void *P) {
  uint64_t Addr = (smem(P) & 0x3ffff) >> 4;
  return Addr | (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
}

/// D(64 x 64, f32) += A(64 x 16) * B(64 x 16)^T; ScaleD = 0 starts from 0.
__device__ void wgmma64x64x16(float (&D)[32], uint64_t DescA, uint64_t DescB, int ScaleD) {
  asm volatile(
      "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %34, 0;\n\t"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "%32, %33, p, 1, 1, 0, 0;\n}"
      : "+f"(D[0]), "+f"(D[1]), "+f"(D[2]), "+f"(D[3]), "+f"(D[4]), "+f"(D[5]),
        "+f"(D[6]), "+f"(D[7]), "+f"(D[8]), "+f"(D[9]), "+f"(D[10]), "+f"(D[11]),
        "+f"(D[12]), "+f"(D[13]), "+f"(D[14]), "+f"(D[15]), "+f"(D[16]), "+f"(D[17]),
        "+f"(D[18]), "+f"(D[19]), "+f"(D[20]), "+f"(D[21]), "+f"(D[22]), "+f"(D[23]),
        "+f"(D[24]), "+f"(D[25]), "+f"(D[26]), "+f"(D[27]), "+f"(D[28]), "+f"(D[29]),
        "+f"(D[30]), "+f"(D[31])
      : "l"(DescA), "l"(DescB), "r"(ScaleD));
}

} // namespace

extern "C" __global__ void __launch_bounds__(384, 1)
    ws_gemm(const __grid_constant__ CUtensorMap MapA, const __grid_constant__ CUtensorMap MapB,
            float *C, int N, int K) {
  extern __shared__ __align__(1024) unsigned char Smem[];
  // The stages (1024-byte aligned for the swizzle), then the barriers.
  unsigned char *Base = reinterpret_cast<unsigned char *>(
      (reinterpret_cast<uintptr_t>(Smem) + 1023) & ~uintptr_t(1023));
  uint64_t *Full = reinterpret_cast<uint64_t *>(Base + kStages * kStageBytes);
  uint64_t *Empty = Full + kStages;
  int Warpgroup = threadIdx.x / 128, Tid = threadIdx.x % 128;
  if (threadIdx.x == 0) {
    for (int S = 0; S < kStages; ++S) {
      mbarInit(&Full[S], 1);
      mbarInit(&Empty[S], 256); // every consumer thread releases the stage
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  int Tiles = K / kBK;
  if (Warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    if (Tid < 32) {
      uint32_t Elected;
      asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, 0xffffffff;\n\tselp.u32 %0, 1, 0, p;\n}"
                   : "=r"(Elected));
      if (Elected) {
        for (int T = 0; T < Tiles; ++T) {
          int S = T % kStages;
          // A fresh barrier's phase "before 0" has parity 1: the first
          // pass through the ring does not wait.
          mbarWait(&Empty[S], ((T / kStages) & 1) ^ 1);
          unsigned char *Stage = Base + S * kStageBytes;
          mbarExpectTx(&Full[S], kStageBytes);
          tmaLoad2d(Stage, &MapA, T * kBK, blockIdx.y * kBM, &Full[S]);
          tmaLoad2d(Stage + kBM * kBK * 2, &MapB, T * kBK, blockIdx.x * kBN, &Full[S]);
        }
      }
    }
    return;
  }
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  float Acc[32];
  for (int I = 0; I < 32; ++I)
    Acc[I] = 0.f;
  int Row0 = (Warpgroup - 1) * 64;
  for (int T = 0; T < Tiles; ++T) {
    int S = T % kStages;
    mbarWait(&Full[S], (T / kStages) & 1);
    unsigned char *Stage = Base + S * kStageBytes;
    unsigned char *TileA = Stage + Row0 * kBK * 2, *TileB = Stage + kBM * kBK * 2;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int Kk = 0; Kk < kBK / 16; ++Kk)
      wgmma64x64x16(Acc, descriptor(TileA + 32 * Kk), descriptor(TileB + 32 * Kk),
                    T > 0 || Kk > 0);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    mbarArrive(&Empty[S]);
  }
  // The m64nNk16 accumulator layout: warp w of the warpgroup holds rows
  // 16w + lane / 4 (+ 8), columns 8j + 2 (lane % 4) (+ 1).
  int Warp = Tid / 32, Lane = Tid % 32;
  int Row = blockIdx.y * kBM + Row0 + 16 * Warp + Lane / 4;
  int Col = blockIdx.x * kBN + 2 * (Lane % 4);
  for (int J = 0; J < 8; ++J)
    for (int I = 0; I < 4; ++I)
      C[(Row + 8 * (I / 2)) * N + Col + 8 * J + I % 2] = Acc[4 * J + I];
}
