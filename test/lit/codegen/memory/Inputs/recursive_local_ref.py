"""CPU reference of test/sim/specs/ptx/recursive_local.ptx's two kernels,
written from the PTX: reads a `sass-run --out` listing whose spec marks
`in` as an output too, prints "N outputs equal the reference" or the
first difference (exit 1)."""
M=2**32
def walk(n,x,up):
    buf=[(x*i+n)%M for i in range(12)]
    r5=(x+1)%M; r6=(x+2)%M; r7=(x*n)%M
    vec=[n,x,r5,r6,r7,r5,r6,n]
    r8=0
    if n!=0: r8=walk(n-1,(x+3)%M,buf)
    i=x%12
    r12=buf[i]; r13=up[i]
    v=vec[(x&1)*4:(x&1)*4+4]
    r19=(r8*7+r12)%M; r20=(r13*3+r19)%M
    r23=((v[0]^v[1])*5+(v[2]+v[3]))%M
    return (r20+r23)%M
def even(n):
    if n==0: return (n*16+1)%M
    return (n*16+odd(n-1))%M
def odd(n):
    if n==0: return (n*3+0)%M
    return (n*3+even(n-1))%M
def walk_alloca(n,x):
    r3=n+1
    if n!=0: r6=walk_alloca(n-1,(x+3)%M)
    else: r6=0
    i=x%r3
    r10=(x*i+n)%M; r13=((x*i+n)%M)^i
    return (r13*5+r6*7+r10)%M
import sys
k=sys.argv[1]
vals={}
for line in open(sys.argv[2]):
    name,v=line.split()
    buf,idx=name.rstrip(']').split('[')
    vals.setdefault(buf,{})[int(idx)]=int(v)
ins=[vals['in'][i] for i in sorted(vals['in'])]
got=[vals['out'][i] for i in sorted(vals['out'])]
out=[]
for g,x in enumerate(ins):
    tid=g%32
    if k=='recursive_local':
        kbuf=[(i*11+x)%M for i in range(12)]
        out+= [(walk(tid&7,x,kbuf)+kbuf[5])%M, even(x&15)]
    else:
        out+= [(walk_alloca(tid&7,x)+x)%M, 0]
for i,(a,b) in enumerate(zip(out,got)):
    if a!=b:
        print(f'out[{i}]: {b}, reference {a}')
        sys.exit(1)
if len(out)!=len(got):
    print(f'{len(got)} outputs, reference {len(out)}')
    sys.exit(1)
print(f'{len(out)} outputs equal the reference')
