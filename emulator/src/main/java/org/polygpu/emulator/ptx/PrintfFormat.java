package org.polygpu.emulator.ptx;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * C's {@code printf} formatting of one device {@code printf}: conversions {@code d i u o x X c s p f F e E g G a A %}
 * with flags {@code - + space # 0}, width and precision (also {@code *}) and the length modifiers {@code hh h l ll j
 * z t L}. Arguments come from CUDA's argument buffer, where each value is aligned to its size: 4 bytes for
 * {@code int}, {@code char} and the promoted {@code short}, 8 for {@code long}, {@code long long}, pointers and
 * {@code double} (a {@code float} arrives promoted to {@code double}). Floating-point values are rounded from their
 * exact binary value, half to even, as glibc does.
 */
final class PrintfFormat {
    /** Where the arguments come from. */
    interface Arguments {
        /** The next argument of {@code bytes} (4 or 8) bytes, aligned to its size. */
        long next(int bytes);

        /** The NUL-terminated string at device address {@code address}, at most {@code limit} characters. */
        String string(long address, int limit);
    }

    private PrintfFormat() {
    }

    static String format(String format, Arguments args) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < format.length()) {
            char ch = format.charAt(i++);
            if (ch != '%' || i >= format.length()) {
                out.append(ch);
                continue;
            }
            int start = i - 1;
            String flags = "";
            while (i < format.length() && "-+ #0".indexOf(format.charAt(i)) >= 0) {
                flags += format.charAt(i++);
            }
            int width = -1;
            if (i < format.length() && format.charAt(i) == '*') {
                width = (int) args.next(4);
                i++;
                if (width < 0) {
                    flags += "-";
                    width = -width;
                }
            }
            while (i < format.length() && Character.isDigit(format.charAt(i))) {
                width = Math.max(width, 0) * 10 + format.charAt(i++) - '0';
            }
            int precision = -1;
            if (i < format.length() && format.charAt(i) == '.') {
                i++;
                precision = 0;
                if (i < format.length() && format.charAt(i) == '*') {
                    precision = Math.max(-1, (int) args.next(4));
                    i++;
                }
                while (i < format.length() && Character.isDigit(format.charAt(i))) {
                    precision = precision * 10 + format.charAt(i++) - '0';
                }
            }
            int lengthStart = i;
            while (i < format.length() && "hljztL".indexOf(format.charAt(i)) >= 0) {
                i++;
            }
            String length = format.substring(lengthStart, i);
            if (i >= format.length()) {
                out.append(format, start, i);
                break;
            }
            char conversion = format.charAt(i++);
            String text = convert(conversion, flags, precision, length, args);
            if (text == null) {
                out.append(format, start, i);
            } else {
                pad(out, text, width, flags, conversion, precision);
            }
        }
        return out.toString();
    }

    /** The converted argument before padding to the width, or {@code null} for an unknown conversion. */
    private static String convert(char conversion, String flags, int precision, String length, Arguments args) {
        boolean wide = length.contains("l") || length.equals("j") || length.equals("z") || length.equals("t");
        return switch (conversion) {
            case '%' -> "%";
            case 'd', 'i' -> {
                long v = args.next(wide ? 8 : 4);
                long signed = wide ? v : length.equals("hh") ? (byte) v : length.equals("h") ? (short) v : (int) v;
                yield sign(signed < 0, flags) + digits(Math.abs(signed), 10, precision);
            }
            case 'u', 'o', 'x', 'X' -> {
                long v = args.next(wide ? 8 : 4);
                long unsigned = wide ? v : length.equals("hh") ? v & 0xFF : length.equals("h") ? v & 0xFFFF
                        : v & 0xFFFF_FFFFL;
                int radix = conversion == 'u' ? 10 : conversion == 'o' ? 8 : 16;
                String d = digits(unsigned, radix, precision);
                if (flags.contains("#") && conversion == 'o' && !d.startsWith("0")) {
                    d = "0" + d;
                } else if (flags.contains("#") && radix == 16 && unsigned != 0) {
                    d = "0x" + d;
                }
                yield conversion == 'X' ? d.toUpperCase(Locale.ROOT) : d;
            }
            case 'c' -> String.valueOf((char) (args.next(4) & 0xFF));
            case 's' -> {
                long address = args.next(8);
                yield address == 0 ? "(null)" : args.string(address, precision < 0 ? Integer.MAX_VALUE : precision);
            }
            case 'p' -> {
                long address = args.next(8);
                yield address == 0 ? "(nil)" : "0x" + Long.toHexString(address);
            }
            case 'n' -> {
                args.next(8);
                yield "";
            }
            case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A' -> {
                String s = floating(Double.longBitsToDouble(args.next(8)), Character.toLowerCase(conversion), flags,
                        precision);
                yield Character.isUpperCase(conversion) ? s.toUpperCase(Locale.ROOT) : s;
            }
            default -> null;
        };
    }

    private static String sign(boolean negative, String flags) {
        return negative ? "-" : flags.contains("+") ? "+" : flags.contains(" ") ? " " : "";
    }

    private static String digits(long magnitude, int radix, int precision) {
        if (precision == 0 && magnitude == 0) {
            return "";
        }
        String d = Long.toUnsignedString(magnitude, radix);
        return d.length() < precision ? "0".repeat(precision - d.length()) + d : d;
    }

    private static String floating(double v, char conversion, String flags, int precision) {
        String sign = sign(v < 0 || (v == 0 && 1 / v < 0), flags);
        if (Double.isNaN(v)) {
            return sign(false, flags) + "nan";
        }
        if (Double.isInfinite(v)) {
            return sign + "inf";
        }
        double magnitude = Math.abs(v);
        boolean alternate = flags.contains("#");
        int p = precision < 0 ? 6 : precision;
        return sign + switch (conversion) {
            case 'f' -> fixed(magnitude, p, alternate);
            case 'e' -> scientific(magnitude, p, alternate);
            case 'g' -> general(magnitude, p == 0 ? 1 : p, alternate);
            default -> hexadecimal(magnitude);
        };
    }

    private static String fixed(double v, int precision, boolean alternate) {
        String s = new BigDecimal(v).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
        return precision == 0 && alternate ? s + "." : s;
    }

    private static String scientific(double v, int precision, boolean alternate) {
        String digits;
        int exponent;
        if (v == 0) {
            digits = "0".repeat(precision + 1);
            exponent = 0;
        } else {
            BigDecimal r = new BigDecimal(v).round(new MathContext(precision + 1, RoundingMode.HALF_EVEN));
            digits = r.unscaledValue().toString();
            exponent = digits.length() - 1 - r.scale();
            digits = digits + "0".repeat(precision + 1 - digits.length());
        }
        String mantissa = digits.substring(0, 1) + (precision > 0 || alternate ? "." : "") + digits.substring(1);
        String e = Integer.toString(Math.abs(exponent));
        return mantissa + "e" + (exponent < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
    }

    /** C's %g: %e if the exponent is below -4 or at least the precision, else %f; trailing zeros dropped. */
    private static String general(double v, int precision, boolean alternate) {
        int exponent = 0;
        if (v != 0) {
            BigDecimal r = new BigDecimal(v).round(new MathContext(precision, RoundingMode.HALF_EVEN));
            exponent = r.precision() - 1 - r.scale();
        }
        String s = exponent < -4 || exponent >= precision ? scientific(v, precision - 1, alternate)
                : fixed(v, precision - 1 - exponent, alternate);
        if (alternate) {
            return s;
        }
        int e = s.indexOf('e');
        String mantissa = e < 0 ? s : s.substring(0, e);
        if (mantissa.contains(".")) {
            mantissa = mantissa.replaceAll("0+$", "");
            if (mantissa.endsWith(".")) {
                mantissa = mantissa.substring(0, mantissa.length() - 1);
            }
        }
        return e < 0 ? mantissa : mantissa + s.substring(e);
    }

    private static String hexadecimal(double v) {
        String s = Double.toHexString(v).replace("0x1.0p", "0x1p");
        int p = s.indexOf('p');
        return s.charAt(p + 1) == '-' ? s : s.substring(0, p + 1) + "+" + s.substring(p + 1);
    }

    /** Appends {@code text} padded to {@code width}: left-justified, or with zeros after the sign or 0x prefix. */
    private static void pad(StringBuilder out, String text, int width, String flags, char conversion, int precision) {
        int fill = width - text.length();
        if (fill <= 0) {
            out.append(text);
        } else if (flags.contains("-")) {
            out.append(text).append(" ".repeat(fill));
        } else if (flags.contains("0") && "diuoxXfFeEgGaA".indexOf(conversion) >= 0
                && !("diuoxX".indexOf(conversion) >= 0 && precision >= 0) && !text.endsWith("inf")
                && !text.endsWith("nan") && !text.endsWith("INF") && !text.endsWith("NAN")) {
            int prefix = text.startsWith("-") || text.startsWith("+") || text.startsWith(" ") ? 1 : 0;
            if (text.startsWith("0x", prefix) || text.startsWith("0X", prefix)) {
                prefix += 2;
            }
            out.append(text, 0, prefix).append("0".repeat(fill)).append(text, prefix, text.length());
        } else {
            out.append(" ".repeat(fill)).append(text);
        }
    }
}
