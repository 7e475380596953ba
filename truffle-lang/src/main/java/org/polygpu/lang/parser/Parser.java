package org.polygpu.lang.parser;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.array.ElementType;
import org.polygpu.lang.PolygpuLanguage;
import org.polygpu.lang.nodes.ArrayExpressionNode;
import org.polygpu.lang.nodes.CallNode;
import org.polygpu.lang.nodes.ConstantNode;
import org.polygpu.lang.nodes.ExpressionNode;
import org.polygpu.lang.nodes.NameNode;
import org.polygpu.lang.nodes.PolygpuRootNode;

import com.oracle.truffle.api.source.Source;

/**
 * Parses an {@code eval} source, one expression, by recursive descent:
 *
 * <pre>
 * expression := array | call
 * array      := type ('[' constant ']')+
 * type       := 'unsigned'? ('bool' | 'char' | 'short' | 'int' | 'long' | 'float' | 'double') | NIDL name
 * call       := name ('(' (argument (',' argument)*)? ')')*
 * name       := '::'? IDENTIFIER ('::' IDENTIFIER)*
 * argument   := STRING | constant | expression
 * constant   := term (('+' | '-') term)*        64-bit integers, or floating point if a literal is
 * term       := unary (('*' | '/' | '%') unary)*
 * unary      := ('+' | '-') unary | INTEGER | FLOAT | '(' constant ')'
 * </pre>
 *
 * Comments ({@code //}, {@code /* *}{@code /}) are skipped. A syntax error is a {@code PolygpuException} with the
 * source location.
 */
public final class Parser {
    /** Deeper nesting is a syntax error at the bracket or sign that goes too deep, not a stack overflow. */
    static final int MAX_DEPTH = 200;

    private final Source source;
    private final List<Token> tokens;
    private final SyntaxErrors errors;
    private int pos;
    private int depth;

    private Parser(Source source) {
        this.source = source;
        this.errors = SyntaxErrors.of(source);
        this.tokens = Lexer.tokens(source.getCharacters().toString(), errors);
    }

    /** The root node of {@code source}'s expression. */
    public static PolygpuRootNode parse(PolygpuLanguage language, Source source) {
        Parser p = new Parser(source);
        ExpressionNode body = p.expression();
        p.expectEnd();
        return new PolygpuRootNode(language, body, source.createSection(0, source.getLength()));
    }

    private Token peek() {
        return tokens.get(pos);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    private Token advance() {
        Token t = tokens.get(pos);
        if (t.kind() != Token.Kind.END) {
            pos++;
        }
        return t;
    }

    private RuntimeException expected(String what) {
        Token t = peek();
        return errors.at(t.start(), Math.max(1, t.length()), "expected " + what + ", found " + t.describe());
    }

    private void expect(String punctuation, String what) {
        if (!peek().is(punctuation)) {
            throw expected("'" + punctuation + "' " + what);
        }
        advance();
    }

    private void expectEnd() {
        if (peek().kind() != Token.Kind.END) {
            throw expected("the end of the expression");
        }
    }

    /** Counts one level of nesting opened by {@code t}; a parse that fails is abandoned, so no finally is needed. */
    private void enter(Token t) {
        if (++depth > MAX_DEPTH) {
            throw errors.at(t.start(), Math.max(1, t.length()), "nesting deeper than " + MAX_DEPTH + " levels");
        }
    }

    private ExpressionNode expression() {
        Token t = peek();
        if (t.kind() == Token.Kind.IDENTIFIER && TypeNames.startsType(t.text())
                && (peek(1).is("[") || t.text().equals("unsigned"))) {
            return array();
        }
        if (t.kind() == Token.Kind.IDENTIFIER || t.is("::")) {
            return call();
        }
        throw expected("an array type such as float[100], a name or a call");
    }

    private ExpressionNode array() {
        Token first = advance();
        String typeName = first.text();
        if (typeName.equals("unsigned") && peek().kind() == Token.Kind.IDENTIFIER
                && List.of("char", "short", "int", "long").contains(peek().text())) {
            typeName += " " + advance().text();
        }
        ElementType type = TypeNames.elementType(typeName);
        if (!peek().is("[")) {
            throw expected("'[' and the size of the array");
        }
        List<Long> dims = new ArrayList<>();
        while (peek().is("[")) {
            advance();
            Token start = peek();
            Number size = constant();
            if (!(size instanceof Long n)) {
                throw errors.at(start.start(), Math.max(1, peek().start() - start.start()),
                        "an array size must be an integer, got " + size);
            }
            if (n < 1) {
                throw errors.at(start.start(), Math.max(1, peek().start() - start.start()),
                        "an array size must be at least 1, got " + n);
            }
            dims.add(n);
            expect("]", "after the size");
        }
        return new ArrayExpressionNode(type, dims.stream().mapToLong(Long::longValue).toArray());
    }

    private ExpressionNode call() {
        int start = peek().start();
        List<String> path = new ArrayList<>();
        if (peek().is("::")) {
            advance();
        }
        path.add(identifier());
        while (peek().is("::")) {
            advance();
            path.add(identifier());
        }
        ExpressionNode node = new NameNode(path);
        while (peek().is("(")) {
            advance();
            List<ExpressionNode> args = new ArrayList<>();
            if (!peek().is(")")) {
                args.add(argument());
                while (peek().is(",")) {
                    advance();
                    args.add(argument());
                }
            }
            expect(")", "to close the argument list");
            String text = source.getCharacters().subSequence(start, tokens.get(pos - 1).start() + 1).toString();
            node = new CallNode(node, args.toArray(ExpressionNode[]::new), text);
        }
        return node;
    }

    private String identifier() {
        if (peek().kind() != Token.Kind.IDENTIFIER) {
            throw expected("a name");
        }
        return advance().text();
    }

    private ExpressionNode argument() {
        Token t = peek();
        if (t.kind() == Token.Kind.STRING) {
            advance();
            return new ConstantNode(t.text());
        }
        if (t.kind() == Token.Kind.IDENTIFIER || t.is("::")) {
            enter(t);
            ExpressionNode e = expression();
            depth--;
            return e;
        }
        Number n = constant();
        return new ConstantNode(n);
    }

    private Number constant() {
        Number left = term();
        while (peek().is("+") || peek().is("-")) {
            Token op = advance();
            left = ConstantArithmetic.apply(op, left, term(), errors);
        }
        return left;
    }

    private Number term() {
        Number left = unary();
        while (peek().is("*") || peek().is("/") || peek().is("%")) {
            Token op = advance();
            left = ConstantArithmetic.apply(op, left, unary(), errors);
        }
        return left;
    }

    private Number unary() {
        Token t = peek();
        if (t.is("-") || t.is("+")) {
            enter(t);
            advance();
            Number operand = unary();
            depth--;
            return t.is("+") ? operand : ConstantArithmetic.negate(t, operand, errors);
        }
        if (t.is("(")) {
            enter(t);
            advance();
            Number n = constant();
            expect(")", "to close the parenthesis");
            depth--;
            return n;
        }
        if (t.kind() == Token.Kind.INTEGER || t.kind() == Token.Kind.FLOAT) {
            advance();
            return ConstantArithmetic.literal(t, errors);
        }
        throw expected("a number");
    }
}
