package org.polygpu.nvrtc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stand-ins for the C and C++ standard library headers that CUDA device code includes and NVRTC does not have
 * ({@code <math.h>}, {@code <stdint.h>}, {@code <float.h>}, {@code <cmath>}, {@code <climits>}, ...): given to every
 * program by name, so that source compiles as written. Each declares only what device code can use: the types, the
 * macros and the {@code std::} names of functions that NVRTC already has in the global namespace (CUDA's math
 * library, {@code printf}, {@code memcpy}, {@code malloc}); the integer types and limits use the same definitions as
 * libcu++'s NVRTC branch, so that including both is harmless; {@code <limits>} is libcu++'s
 * {@code numeric_limits} when the CCCL headers are there. Stateless.
 */
final class StandardHeaders {
    private static final List<String> MATH_FUNCTIONS = List.of("abs", "fabs", "fmod", "remainder", "remquo", "fma",
            "fmax", "fmin", "fdim", "exp", "exp2", "expm1", "log", "log10", "log2", "log1p", "pow", "sqrt", "cbrt",
            "hypot", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh",
            "atanh", "erf", "erfc", "tgamma", "lgamma", "ceil", "floor", "trunc", "round", "lround", "llround",
            "nearbyint", "rint", "lrint", "llrint", "frexp", "ldexp", "modf", "scalbn", "scalbln", "ilogb", "logb",
            "nextafter", "copysign", "isfinite", "isinf", "isnan", "signbit", "nan");

    private static final String STDINT = """
            #pragma once
            #include <limits.h>
            typedef signed char int8_t;
            typedef unsigned char uint8_t;
            typedef signed short int16_t;
            typedef unsigned short uint16_t;
            typedef signed int int32_t;
            typedef unsigned int uint32_t;
            typedef signed long long int64_t;
            typedef unsigned long long uint64_t;
            typedef int8_t int_least8_t; typedef uint8_t uint_least8_t; typedef int8_t int_fast8_t;
            typedef uint8_t uint_fast8_t;
            typedef int16_t int_least16_t; typedef uint16_t uint_least16_t; typedef int16_t int_fast16_t;
            typedef uint16_t uint_fast16_t;
            typedef int32_t int_least32_t; typedef uint32_t uint_least32_t; typedef int32_t int_fast32_t;
            typedef uint32_t uint_fast32_t;
            typedef int64_t int_least64_t; typedef uint64_t uint_least64_t; typedef int64_t int_fast64_t;
            typedef uint64_t uint_fast64_t;
            typedef int64_t intptr_t;
            typedef uint64_t uintptr_t;
            typedef int64_t intmax_t;
            typedef uint64_t uintmax_t;
            #ifndef INT8_MIN
            #define INT8_MIN        SCHAR_MIN
            #define INT16_MIN       SHRT_MIN
            #define INT32_MIN       INT_MIN
            #define INT64_MIN       LLONG_MIN
            #define INT8_MAX        SCHAR_MAX
            #define INT16_MAX       SHRT_MAX
            #define INT32_MAX       INT_MAX
            #define INT64_MAX       LLONG_MAX
            #define UINT8_MAX       UCHAR_MAX
            #define UINT16_MAX      USHRT_MAX
            #define UINT32_MAX      UINT_MAX
            #define UINT64_MAX      ULLONG_MAX
            #define INTPTR_MIN      LLONG_MIN
            #define INTPTR_MAX      LLONG_MAX
            #define UINTPTR_MAX     ULLONG_MAX
            #define SIZE_MAX        ULLONG_MAX
            #define INT8_C(X)    ((int_least8_t) (X))
            #define INT16_C(X)   ((int_least16_t) (X))
            #define INT32_C(X)   ((int_least32_t) (X))
            #define INT64_C(X)   ((int_least64_t) (X))
            #define UINT8_C(X)   ((uint_least8_t) (X))
            #define UINT16_C(X)  ((uint_least16_t) (X))
            #define UINT32_C(X)  ((uint_least32_t) (X))
            #define UINT64_C(X)  ((uint_least64_t) (X))
            #endif
            """;

    private static final String LIMITS = """
            #pragma once
            #ifndef CHAR_BIT
            #define CHAR_BIT 8
            #define SCHAR_MIN (-128)
            #define SCHAR_MAX 127
            #define UCHAR_MAX 255
            #define CHAR_MIN SCHAR_MIN
            #define CHAR_MAX SCHAR_MAX
            #define SHRT_MIN (-SHRT_MAX - 1)
            #define SHRT_MAX 0x7fff
            #define USHRT_MAX 0xffff
            #define INT_MIN (-INT_MAX - 1)
            #define INT_MAX 0x7fffffff
            #define UINT_MAX 0xffffffff
            #define LONG_MIN (-LONG_MAX - 1)
            #define LONG_MAX LLONG_MAX
            #define ULONG_MAX ULLONG_MAX
            #define LLONG_MIN (-LLONG_MAX - 1)
            #define LLONG_MAX 0x7fffffffffffffffLL
            #define ULLONG_MAX 0xffffffffffffffffUL
            #endif
            """;

    private static final String FLOAT = """
            #pragma once
            #ifndef FLT_MAX
            #define FLT_RADIX 2
            #define FLT_MANT_DIG 24
            #define DBL_MANT_DIG 53
            #define FLT_DIG 6
            #define DBL_DIG 15
            #define FLT_DECIMAL_DIG 9
            #define DBL_DECIMAL_DIG 17
            #define FLT_MIN_EXP (-125)
            #define DBL_MIN_EXP (-1021)
            #define FLT_MIN_10_EXP (-37)
            #define DBL_MIN_10_EXP (-307)
            #define FLT_MAX_EXP 128
            #define DBL_MAX_EXP 1024
            #define FLT_MAX_10_EXP 38
            #define DBL_MAX_10_EXP 308
            #define FLT_MAX 3.40282346638528859811704183484516925e+38F
            #define DBL_MAX 1.79769313486231570814527423731704357e+308
            #define FLT_MIN 1.17549435082228750796873653722224568e-38F
            #define DBL_MIN 2.22507385850720138309023271733240406e-308
            #define FLT_EPSILON 1.19209289550781250000000000000000000e-7F
            #define DBL_EPSILON 2.22044604925031308084726333618164062e-16
            #define FLT_TRUE_MIN 1.40129846432481707092372958328991613e-45F
            #define DBL_TRUE_MIN 4.94065645841246544176568792868221372e-324
            #endif
            """;

    private static final String MATH = """
            #pragma once
            #ifndef M_PI
            #define M_E 2.7182818284590452354
            #define M_LOG2E 1.4426950408889634074
            #define M_LOG10E 0.43429448190325182765
            #define M_LN2 0.69314718055994530942
            #define M_LN10 2.30258509299404568402
            #define M_PI 3.14159265358979323846
            #define M_PI_2 1.57079632679489661923
            #define M_PI_4 0.78539816339744830962
            #define M_1_PI 0.31830988618379067154
            #define M_2_PI 0.63661977236758134308
            #define M_2_SQRTPI 1.12837916709551257390
            #define M_SQRT2 1.41421356237309504880
            #define M_SQRT1_2 0.70710678118654752440
            #endif
            #ifndef INFINITY
            #define INFINITY __int_as_float(0x7f800000)
            #define NAN __int_as_float(0x7fffffff)
            #define HUGE_VALF __int_as_float(0x7f800000)
            #define HUGE_VAL __longlong_as_double(0x7ff0000000000000LL)
            #endif
            """;

    /**
     * The header every program includes first: nvcc's implicit {@code cuda_runtime.h} includes the C and C++ math and
     * standard library headers, so code written for nvcc uses {@code INFINITY} or {@code std::sqrt} without them.
     */
    static final String IMPLICIT = "polygpu_implicit.h";

    /** Header name to text. */
    static final Map<String, String> ALL = headers();

    private StandardHeaders() {
    }

    private static Map<String, String> headers() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(IMPLICIT, "#pragma once\n#include <math.h>\n#include <cmath>\n#include <stdlib.h>\n#include <cstdlib>\n");
        m.put("stdio.h", "#pragma once\n");
        m.put("cstdio", "#pragma once\nnamespace std { using ::printf; }\n");
        m.put("assert.h", "#pragma once\n");
        m.put("cassert", "#pragma once\n");
        m.put("stdint.h", STDINT);
        m.put("cstdint", "#pragma once\n#include <stdint.h>\n" + usingStd("int8_t", "uint8_t", "int16_t",
                "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "intptr_t", "uintptr_t", "intmax_t",
                "uintmax_t", "int_least8_t", "uint_least8_t", "int_least16_t", "uint_least16_t", "int_least32_t",
                "uint_least32_t", "int_least64_t", "uint_least64_t", "int_fast8_t", "uint_fast8_t", "int_fast16_t",
                "uint_fast16_t", "int_fast32_t", "uint_fast32_t", "int_fast64_t", "uint_fast64_t"));
        m.put("limits.h", LIMITS);
        m.put("climits", "#pragma once\n#include <limits.h>\n");
        m.put("float.h", FLOAT);
        m.put("cfloat", "#pragma once\n#include <float.h>\n");
        m.put("math.h", MATH);
        m.put("cmath", "#pragma once\n#include <math.h>\n" + usingStd(MATH_FUNCTIONS.toArray(String[]::new)));
        m.put("stdlib.h", "#pragma once\n#include <sys/types.h>\n#define EXIT_SUCCESS 0\n#define EXIT_FAILURE 1\n");
        // glibc's <stdlib.h> includes <sys/types.h>, whose System V and BSD names (uint, ushort, ...) code written
        // for nvcc therefore uses without an include.
        m.put("sys/types.h", """
                #pragma once
                typedef unsigned char u_char; typedef unsigned short u_short; typedef unsigned int u_int;
                typedef unsigned long u_long; typedef unsigned short ushort; typedef unsigned int uint;
                typedef unsigned long ulong;
                """);
        m.put("cstdlib", "#pragma once\n#include <stdlib.h>\n" + usingStd("abs", "malloc", "free"));
        m.put("string.h", "#pragma once\n");
        m.put("time.h", "#pragma once\n");
        m.put("ctime", "#pragma once\n");
        m.put("cstring", "#pragma once\n" + usingStd("memcpy", "memset"));
        m.put("stddef.h", "#pragma once\n#define offsetof(type, member) ((size_t) &(((type *) 0)->member))\n");
        m.put("cstddef", "#pragma once\n#include <stddef.h>\n" + usingStd("size_t", "ptrdiff_t")
                + "namespace std { typedef decltype(nullptr) nullptr_t; }\n");
        m.put("limits", """
                #pragma once
                #if __has_include(<cuda/std/limits>)
                #include <cuda/std/limits>
                namespace std { using cuda::std::numeric_limits; }
                #endif
                """);
        m.put("algorithm", "#pragma once\n" + usingStd("min", "max"));
        return Map.copyOf(m);
    }

    private static String usingStd(String... names) {
        StringBuilder s = new StringBuilder("namespace std {");
        for (String n : names) {
            s.append(" using ::").append(n).append(';');
        }
        return s.append(" }\n").toString();
    }
}
