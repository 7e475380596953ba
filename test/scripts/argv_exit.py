# args: one --two 3
# exit: 3
# sys.argv and the exit status pass through the launcher.
import sys

print("argv:", sys.argv[1:])
print("script:", sys.argv[0].endswith("argv_exit.py"))
sys.exit(3)
