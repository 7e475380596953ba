# exit: 1
# An uncaught polygpu error ends the script with status 1; its message and the guest stack go to stderr.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")


def allocate():
    return CU.DeviceArray("int", 2, 0)


print("before the error")
allocate()
print("never printed")
