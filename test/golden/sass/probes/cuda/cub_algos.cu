#include <cub/cub.cuh>
#include <thrust/sort.h>
#include <thrust/scan.h>
#include <thrust/reduce.h>
#include <thrust/execution_policy.h>
using namespace cub;
template <int BT, int IPT, typename T>
__global__ void block_sort(T* d) {
  using BR = BlockRadixSort<T, BT, IPT>;
  using BL = BlockLoad<T, BT, IPT, BLOCK_LOAD_WARP_TRANSPOSE>;
  using BS = BlockStore<T, BT, IPT, BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union { typename BR::TempStorage s; typename BL::TempStorage l; typename BS::TempStorage st; } t;
  T k[IPT];
  BL(t.l).Load(d + blockIdx.x * BT * IPT, k);
  __syncthreads();
  BR(t.s).Sort(k);
  __syncthreads();
  BS(t.st).Store(d + blockIdx.x * BT * IPT, k);
}
template __global__ void block_sort<128, 4, int>(int*);
template __global__ void block_sort<128, 4, float>(float*);
template __global__ void block_sort<64, 2, double>(double*);
template __global__ void block_sort<128, 4, unsigned long long>(unsigned long long*);
template __global__ void block_sort<128, 8, unsigned char>(unsigned char*);
template __global__ void block_sort<128, 4, __half>(__half*);

template <typename T>
__global__ void block_scan_reduce(T* d, T* o) {
  using BSc = BlockScan<T, 256>;
  using BRd = BlockReduce<T, 256>;
  using WR = WarpReduce<T>;
  __shared__ typename BSc::TempStorage s;
  __shared__ typename BRd::TempStorage r;
  __shared__ typename WR::TempStorage w[8];
  T v = d[threadIdx.x + blockIdx.x * 256];
  T x;
  BSc(s).ExclusiveSum(v, x);
  T m = BRd(r).Reduce(x, [] __device__ (T a, T b) { return a > b ? a : b; });
  T ws = WR(w[threadIdx.x / 32]).Sum(v);
  if (threadIdx.x == 0) o[blockIdx.x] = m + ws;
  d[threadIdx.x + blockIdx.x * 256] = x;
}
template __global__ void block_scan_reduce<int>(int*, int*);
template __global__ void block_scan_reduce<float>(float*, float*);
template __global__ void block_scan_reduce<double>(double*, double*);
template __global__ void block_scan_reduce<long long>(long long*, long long*);
template __global__ void block_scan_reduce<short>(short*, short*);

__global__ void block_hist(const unsigned char* d, unsigned* h) {
  using BH = BlockHistogram<unsigned char, 128, 4, 256>;
  __shared__ typename BH::TempStorage t;
  __shared__ unsigned sh[256];
  unsigned char v[4];
  for (int i = 0; i < 4; i++) v[i] = d[blockIdx.x * 512 + threadIdx.x * 4 + i];
  BH(t).Histogram(v, sh);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += 128) atomicAdd(&h[i], sh[i]);
}

__global__ void block_discontinuity(int* d, int* f) {
  using BD = BlockDiscontinuity<int, 128>;
  using BE = BlockExchange<int, 128, 4>;
  __shared__ typename BD::TempStorage t;
  __shared__ typename BE::TempStorage e;
  int v[4], fl[4];
  for (int i = 0; i < 4; i++) v[i] = d[threadIdx.x * 4 + i];
  BD(t).FlagHeads(fl, v, [] __device__ (int a, int b) { return a != b; });
  BE(e).StripedToBlocked(fl);
  for (int i = 0; i < 4; i++) f[threadIdx.x * 4 + i] = fl[i];
}
// Force device-side kernels of DeviceRadixSort etc to be instantiated
void host_side(int* a, int* b, size_t n, void* tmp, size_t tb, float* fa, float* fb, int* cnt) {
  cub::DeviceRadixSort::SortKeys(tmp, tb, a, b, (int)n);
  cub::DeviceRadixSort::SortPairs(tmp, tb, fa, fb, a, b, (int)n);
  cub::DeviceScan::InclusiveSum(tmp, tb, a, b, (int)n);
  cub::DeviceReduce::Sum(tmp, tb, fa, fb, (int)n);
  cub::DeviceReduce::ArgMax(tmp, tb, fa, (cub::KeyValuePair<int,float>*)b, (int)n);
  cub::DeviceSelect::Flagged(tmp, tb, a, (char*)fa, b, cnt, (int)n);
  cub::DeviceHistogram::HistogramEven(tmp, tb, fa, a, 65, 0.f, 1.f, (int)n);
  cub::DeviceRunLengthEncode::Encode(tmp, tb, a, b, cnt, cnt + 1, (int)n);
  cub::DeviceSegmentedReduce::Sum(tmp, tb, a, b, 10, cnt, cnt + 1);
  thrust::sort(thrust::device, fa, fa + n);
  thrust::inclusive_scan(thrust::device, a, a + n, b);
}
