# Multi-dimensional arrays: nested views, C and F order, only the last dimension writable.
import polyglot
import array

CU = polyglot.eval(language="polygpu", string="CU")

for order in ["C", "F"]:
    m = CU.DeviceArray("int", 2, 3, order)
    for i in range(2):
        for j in range(3):
            m[i][j] = 10 * i + j
    flat = array.array("i", [0] * 6)
    m.copyTo(flat)
    print(order, "order:", [list(row) for row in m], "memory:", list(flat))

cube = polyglot.eval(language="polygpu", string="double[2][2][3]")
cube[1][0][2] = 7.5
print("cube[1][0][2] =", cube[1][0][2], "len:", len(cube), len(cube[0]), len(cube[0][0]))
four = CU.DeviceArray("float", 2, 2, 2, 2, "F")
four[1][1][1][1] = 1.0
out = array.array("f", [0] * 16)
four.copyTo(out)
print("4-D F order, last element set:", list(out).index(1.0))
try:
    m[0] = 5
except polyglot.ForeignException as e:
    print("m[0] = 5 ->", e)
