# 12 predicates live at once (more than P0..P6) at -O0, where nothing
# reorders the code to shorten their lives.
n = 12
print(".version 8.0\n.target sm_90a\n.address_size 64")
print(".visible .entry pp(.param .u64 p)\n{\n .reg .b32 %r<64>;\n .reg .b64 %rd<4>;\n .reg .pred %p<20>;")
print(" ld.param.u64 %rd1, [p];")
for i in range(n):
    print(f" ld.global.u32 %r{i}, [%rd1+{4 * i}];\n setp.gt.s32 %p{i}, %r{i}, 10;")
print(" mov.u32 %r40, 0;")
for i in range(n):
    print(f" selp.b32 %r{20 + i}, {i + 1}, 0, %p{i};\n add.s32 %r40, %r40, %r{20 + i};")
print(" st.global.u32 [%rd1], %r40;\n ret;\n}")
