// Whole-program build of the same code: one translation unit.
#include "helper.cu"
#include "kernels.cu"
