# Device arrays from Python: eval expressions, every element type, indexing, iteration, errors and free.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")

a = polyglot.eval(language="polygpu", string="float[2 * 3] // six floats")
print(len(a), list(a))
a[0] = 1.5
a[5] = -2.25
print(a[0], a[5], [x * 2 for x in a])

for t, v in [("char", -128), ("unsigned char", 255), ("short", -32768), ("unsigned short", 65535),
             ("int", -7), ("unsigned int", 4294967295), ("long", -2**63), ("unsigned long", 2**63 - 1),
             ("float", 0.5), ("double", 1e300), ("bool", True), ("sint32", 42), ("uint8", 200)]:
    arr = CU.DeviceArray(t, 3)
    arr[1] = v
    print(f"{t}: fresh {arr[0]}, stored {arr[1]}, round trip {arr[1] == v}")

try:
    a[6]
except IndexError:
    print("a[6]: IndexError")

i = CU.DeviceArray("int", 1)
for bad in [2**40, 1.5, "x"]:
    try:
        i[0] = bad
    except polyglot.ForeignException as e:
        print("int element =", repr(bad), "->", e)

b = CU.DeviceArray("double", 4)
print("freed:", b.isMemoryFreed())
b.free()
print("freed:", b.isMemoryFreed())
for action in [lambda: b[0], lambda: len(b), lambda: b.free()]:
    try:
        action()
    except polyglot.ForeignException as e:
        print("after free:", e)
print("still usable:", len(polyglot.eval(language="polygpu", string="int[3]")))
