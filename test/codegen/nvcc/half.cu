// Half and bfloat16 arithmetic (relu fma, NaN-propagating max, h2exp,
// hrcp/hlog) as nvcc writes it (test/codegen/nvcc-diff.py).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void hmath(const __half* x, __nv_bfloat16* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
  __half h = x[i]; __half2 h2 = __halves2half2(h, __hneg(h));
  __nv_bfloat16 b = __float2bfloat16(__half2float(h));
  h2 = __hfma2_relu(h2, h2, h2); h2 = h2exp(h2); h = __hmax_nan(__low2half(h2), hsqrt(__habs(h)));
  b = b * b + __float2bfloat16(1.f); b = hrcp(b) + hlog(b);
  y[i] = b + __float2bfloat16(__half2float(h));
}
