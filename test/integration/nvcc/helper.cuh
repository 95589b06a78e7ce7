// A device function in its own file: called across files under -rdc.
__device__ float helper(float x, int i);
