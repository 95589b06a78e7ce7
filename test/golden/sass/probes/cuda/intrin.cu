__global__ void int_intr(int* d, unsigned* u, long long* q, unsigned long long* uq) {
  int i = threadIdx.x; int a = d[i], b = d[i+1], c = d[i+2]; unsigned x = u[i], y = u[i+1], z = u[i+2];
  long long qa = q[i], qb = q[i+1]; unsigned long long ua = uq[i], ub = uq[i+1];
  int r = __popc(x) + __popcll(ua) + __clz(a) + __clzll(qa) + __ffs(a) + __ffsll(qa) + __brev(x) + (int)__brevll(ua);
  r += __byte_perm(x, y, z) + __funnelshift_l(x, y, z) + __funnelshift_r(x, y, z) + __funnelshift_lc(x, y, 5) + __funnelshift_rc(x, y, z);
  r += __mulhi(a, b) + __umulhi(x, y) + (int)__mul64hi(qa, qb) + (int)__umul64hi(ua, ub) + __mul24(a, b) + __umul24(x, y);
  r += __sad(a, b, x) + __usad(x, y, z) + __hadd(a, b) + __rhadd(a, b) + __uhadd(x, y) + __urhadd(x, y);
  r += __vabs2(x) + __vabsdiffs2(x, y) + __vabsdiffu2(x, y) + __vadd2(x, y) + __vaddss2(x,y) + __vaddus2(x,y) + __vavgs2(x,y) + __vavgu2(x,y);
  r += __vcmpeq2(x,y) + __vcmpges2(x,y) + __vcmpgtu2(x,y) + __vmaxs2(x,y) + __vminu2(x,y) + __vsads2(x,y) + __vsub2(x,y) + __vsubss2(x,y);
  r += __vabs4(x) + __vabsdiffs4(x,y) + __vadd4(x,y) + __vaddss4(x,y) + __vavgu4(x,y) + __vcmpeq4(x,y) + __vcmpgeu4(x,y) + __vcmplts4(x,y);
  r += __vmaxu4(x,y) + __vmins4(x,y) + __vsadu4(x,y) + __vsub4(x,y) + __vsubus4(x,y) + __vneg4(x) + __vnegss2(x) + __vhaddu4(x,y);
  r += __dp4a(a, b, c) + __dp4a(x, y, z) + __dp2a_lo(a, b, c) + __dp2a_hi(x, y, z);
  r += __vimax3_s32(a, b, c) + __vimin3_u32(x, y, z) + __vimax_s32_relu(a, b) + __viaddmax_s32(a, b, c) + __viaddmin_u32(x, y, z);
  r += __vimax3_s16x2(x, y, z) + __vimin3_u16x2(x, y, z) + __viaddmax_s16x2_relu(x, y, z) + __vimax_s16x2_relu(x, y);
  r += a / b + a % b + x / y + x % y + (int)(qa / qb) + (int)(qa % qb) + (int)(ua / ub) + (int)(ua % ub) + x / 7 + a / -9 + (int)(ua / 13);
  r += min(a, b) + max(x, y) + abs(a) + (int)llabs(qa) + (int)llmin(qa, qb) + (int)ullmax(ua, ub);
  r += (a >> (b & 31)) + (x >> (y & 31)) + (int)(qa >> (b & 63)) + (int)(ua << (y & 63)) + (int)(ua >> 17) + (int)(qa << 33);
  r += (a * b) + (int)(qa * qb) + (int)((long long)a * b) + (int)((unsigned long long)x * y);
  unsigned short hs = (unsigned short)x; short ss = (short)a; signed char sc = (signed char)b;
  r += hs * ss + sc * 3 + (unsigned char)c;
  d[i] = r;
  q[i] = qa + qb - (long long)ua + (qa & qb) + (qa | qb) + (qa ^ ~qb) + (qa < qb) + (ua > ub) + (qa == qb);
}
