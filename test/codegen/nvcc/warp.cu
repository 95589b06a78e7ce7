// Warp collectives, cooperative groups (tiled reduce/scan), shared memory
// and atomics as nvcc writes them (test/codegen/nvcc-diff.py).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void warpk(const int* x, int* y, unsigned long long* z, float* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  int s = cg::reduce(tile, v, cg::plus<int>());
  int m = cg::reduce(tile, v, cg::greater<int>());
  unsigned any = __match_any_sync(0xffffffff, v & 7);
  int sc = cg::inclusive_scan(tile, v);
  unsigned b = __ballot_sync(0xffffffff, v > 10);
  int up = __shfl_up_sync(0xffffffff, v, 3, 16);
  float fv = __shfl_xor_sync(0xffffffff, (float)v * 0.5f, 5);
  __shared__ int sh[256];
  sh[threadIdx.x] = v; __syncthreads();
  int nb = sh[(threadIdx.x + 17) & 255];
  __syncwarp();
  atomicAdd(&z[v & 3], (unsigned long long)v);
  atomicMax(&y[n + (v & 7)], v);
  int old = atomicCAS(&y[n + 8 + (v & 3)], 0, v);
  atomicExch(&f[n], fv);
  if (i < n) y[i] = s + m * 3 + __popc(any) + sc + __popc(b) + up + nb + (old & 1) + (int)fv;
}
