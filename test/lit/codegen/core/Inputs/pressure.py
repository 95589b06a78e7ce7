# 40 loaded values all live at once, then summed twice: needs > 24 registers.
n = 40
print(".version 8.0\n.target sm_90a\n.address_size 64")
print(".visible .entry press(.param .u64 p)\n{\n .reg .b32 %r<100>;\n .reg .b64 %rd<4>;")
print(" ld.param.u64 %rd1, [p];")
for i in range(n):
    print(f" ld.global.u32 %r{i}, [%rd1+{4 * i}];")
print(" mov.u32 %r90, 0;")
for i in range(n):
    print(f" add.s32 %r90, %r90, %r{i};")
for i in range(n):
    print(f" add.s32 %r90, %r90, %r{n - 1 - i};")
print(" st.global.u32 [%rd1], %r90;\n ret;\n}")
