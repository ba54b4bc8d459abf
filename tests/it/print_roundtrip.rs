//! Round-trip tests of `ladr_c::print`: parse → print → (gcc accepts) → reparse → print gives the
//! same text; precedence cases of `expr_to_string`; the line map.

use std::io::Write;
use std::process::{Command, Stdio};

use ladr_c::print::{
    declaration_to_string, expr_to_string, print_unit, statement_to_string, type_name_to_string,
};
use lang_c::ast::*;
use lang_c::driver::{parse_preprocessed, Config};

fn parse(src: &str) -> TranslationUnit {
    match parse_preprocessed(&Config::with_gcc(), src.to_string()) {
        Ok(p) => p.unit,
        Err(e) => panic!("parse error {:?} in:\n{}", e, src),
    }
}

fn gcc_accepts(text: &str) -> Result<(), String> {
    let mut child = Command::new("gcc")
        .args(["-fsyntax-only", "-w", "-x", "c", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gcc must be installed");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Parses `src`, prints it, checks gcc accepts it and that printing is a fixpoint; returns the text.
fn roundtrip(src: &str) -> String {
    if let Err(e) = gcc_accepts(src) {
        panic!("fixture itself rejected by gcc:\n{}\n{}", src, e);
    }
    let p1 = print_unit(&parse(src));
    assert_eq!(
        p1.origins.len(),
        p1.text.lines().count(),
        "one origin per line:\n{}",
        p1.text
    );
    if let Err(e) = gcc_accepts(&p1.text) {
        panic!("gcc rejects printed text:\n{}\n{}", p1.text, e);
    }
    let p2 = print_unit(&parse(&p1.text));
    assert_eq!(p1.text, p2.text, "print is not a fixpoint");
    p1.text
}

macro_rules! rt {
    ($($name:ident: $src:expr;)*) => {$(
        #[test]
        fn $name() {
            roundtrip($src);
        }
    )*};
}

rt! {
    declarators: "int *a[3]; int (*b)[3]; int (*f)(int); void (*signal(int, void (*)(int)))(int);\n\
                  char *(*(*x[2])(void))[4]; int **pp, * const cp, * volatile * restrict vr;\n\
                  int m[2][3]; int (*pm)[2][3]; int *(*fp2)(int *, char **);";
    abstract_declarators: "int f(int *, int [], int (*)[3], void (*)(void), char *(*)(int, ...));\n\
                  int g(void) { return sizeof(int (*)[3]) + sizeof(char *[2]) + (int)(long)(void *)0; }";
    params: "int printf(const char *fmt, ...); void v(void); int kr(); \n\
             void arr(int n, int a[static 3], int b[const n], int c[*]);";
    kr_definition: "int h(a, b) int a; char *b; { return a + *b; }";
    bitfields: "struct s { unsigned a : 3, : 0; int b : 2; signed c; } v;";
    structs: "struct outer { struct inner { int x; } in; union { int i; float f; }; struct { int y; } anon; };\n\
              struct fwd; typedef struct fwd fwd_t; struct empty {}; struct outer o;";
    struct_attrs: "struct p { char c; int i; } __attribute__((aligned(4))); __attribute__((packed)) struct r { int a; } rv;\n\
                   struct q { int a __attribute__((aligned(8))); char b; } __attribute__((packed)) qv;";
    enums: "enum e { A, B = 3, C __attribute__((deprecated)) = B + 1 }; enum e ev = C;\n\
            enum { X = 1 << 2, Y } anon; typedef enum f { F1 } f_t;";
    typedefs_and_storage: "typedef int myint; typedef myint *pint; static int s; extern int e;\n\
                  static inline int add(int a, int b) { register int r = a + b; auto int q = r; return q; }\n\
                  _Noreturn void die(void); _Thread_local int tl;";
    atomics_align: "_Atomic int ai; _Atomic(int) ai2; _Atomic(int *) ap; int * _Atomic pa;\n\
                    _Alignas(16) char buf[16]; _Alignas(long) char b2[8];\n\
                    _Static_assert(sizeof(int) >= 2, \"int\"); int al = _Alignof(double);\n\
                    void f(void) { _Static_assert(1, \"x\"); }";
    attributes_everywhere: "__attribute__((noreturn)) void ab(void);\n\
                  void fmt(const char *, ...) __attribute__((format(printf, 1, 2)));\n\
                  int x __attribute__((aligned(8))) = 3, y __asm__(\"yy\");\n\
                  int * __attribute__((unused)) pp;\n\
                  void par(int a __attribute__((unused)), int b);\n\
                  int rename_me(int) __asm__(\"other\") __attribute__((const));\n\
                  static __attribute__((unused)) int u;";
    initializers: "struct pt { int x, y; }; struct ln { struct pt a, b; int t[3]; };\n\
                  struct ln l = { .a = { 1, 2 }, .b.x = 3, .t = { [0] = 1, [2] = 3 } };\n\
                  int r[10] = { [1 ... 3] = 7, [5] = 1, 2 }; int e[] = {}; char s[] = \"ab\" \"cd\";\n\
                  struct pt arr[2] = { [1].y = 5, { 1, 2 } }; int z = { 4 };";
    compound_literals: "struct pt { int x, y; }; int f(void) { struct pt *p = &(struct pt){ 1, 2 };\n\
                  int *a = (int[]){ 1, 2, 3 }; return ((struct pt){ .y = 3 }).y + p->x + a[1] + sizeof((int){ 1 }); }";
    statements: "int g(int); int f(int n) { int i, s = 0;\n\
                  for (i = 0; i < n; i++) s += i; for (;;) break; for (int j = 0, k = 1; j < k; j++, k--) { continue; }\n\
                  while (n--) if (n & 1) s++; else if (n & 2) s--; else { s = 0; }\n\
                  do s++; while (s < 10); do { s--; } while (s > 0);\n\
                  switch (n) { case 0: case 1 ... 3: s = 1; break; default: ; }\n\
                  { int inner = 3; s += inner; } ; goto out; out: return s; }";
    dangling_else: "int f(int a, int b) { if (a) { if (b) return 1; } else return 2; if (a) if (b) return 3; else return 4;\n\
                  if (a) { while (b) if (a) b--; } else b++; return 0; }";
    labels: "void f(int x) { again: if (x) { x--; goto again; } l1: l2: x++; switch (x) { case 1: { break; } default: x = 2; } }";
    asm_statements: "int f(int x) { int y; __asm__(\"nop\"); __asm__ volatile(\"\" ::: \"memory\");\n\
                  __asm__(\"mov %1, %0\" : \"=r\"(y) : \"r\"(x)); __asm__ __volatile__(\"add %[a], %[b]\" : [b] \"+r\"(y) : [a] \"r\"(x) : \"cc\", \"memory\");\n\
                  __asm__ volatile(\"nop\" : ); return y; }";
    gnu_expressions: "struct s { int a; int b[4]; struct { int c; } in; };\n\
                  int f(int x, ...) { __builtin_va_list ap; __builtin_va_start(ap, x);\n\
                  int v = __builtin_va_arg(ap, int); __builtin_va_end(ap);\n\
                  __typeof__(x) t = ({ int q = x; q * 2; });\n\
                  typeof(int *) tp = 0;\n\
                  return v + t + __builtin_offsetof(struct s, b[2]) + __builtin_offsetof(struct s, in.c); }";
    generic_selection: "int f(double d) { return _Generic(d, int: 1, double: 2, default: 3) + _Generic(1, default: 0); }";
    constants: "unsigned long long c[] = { 0x1Fu, 017, 0b101, 0, 10LL, 10ul, 10llu, 'a', L'b', u'c', '\\n', '\\x41' };\n\
                  double d[] = { 1.5e3f, 0x1.8p3L, .5, 1., 2e-3, 1e+5 }; char *s = \"a\\\"b\" \"\\n\"; int *w = (int *)L\"wide\";\n\
                  _Complex double z = 2.0i + 3i;";
    precedence: "int a, b, c, d, *p, **pp, arr[3]; int f(int);\n\
                  void g(void) { a = b - (c - d); a = (a = b) ? c : d; a = -(-b); a = - --b; a = &*p == p;\n\
                  a = (b, c); f((a, b)); a = b ? c : d ? a : b; a = (b ? c : d) ? a : b; a = b ? (c, d) : a;\n\
                  a = (int)-b; a = (int)+b; a = *p++; a = (*p)++; a = ++*p; a = !!a; a = ~-a; a = sizeof(a + b);\n\
                  a = a << 1 >> 2; a = a << (1 >> 2); a = a & b | c ^ d; a = a & (b | c); a = (a || b) && c;\n\
                  a = b < c == d > a; a = **pp; a = arr[a ? b : c]; a = (a += b) * 2; a = b = c = d;\n\
                  a = (unsigned char)(a + b); a = (long)(a * b) / 2; a += a - b + (c + d); p = &arr[1]; a = -arr[0]; }";
    functions_pointers: "typedef int (*cmp_t)(const void *, const void *);\n\
                  void qs(void *base, int n, int sz, cmp_t c); int (*pick(int k))(const void *, const void *);\n\
                  static int call(int (*fn)(int), int v) { return fn(v) + (*fn)(v); }";
    pthread_like: "typedef unsigned long pthread_t; int pthread_create(pthread_t *, void *, void *(*)(void *), void *);\n\
                  int x; void *t(void *arg) { x++; return (void *)0; }\n\
                  int main(void) { pthread_t id; pthread_create(&id, 0, t, 0); return x; }";
    volatile_const: "const volatile int cv = 1; const char *const names[] = { \"a\", \"b\" }; int *restrict rp;\n\
                  void f(const int *restrict a, volatile int *b);";
    extension_dropped: "__extension__ typedef long long ll; int f(void) { __extension__ int y = 1; return y; }";
    alignof_gnu: "int a = __alignof__(long); int b = sizeof(struct { int x; char c; });";
}

#[test]
fn printed_examples() {
    // The declarators from the design brief print back exactly as written.
    let src = "int *a[3];\nint (*b)[3];\nint (*f)(int);\nvoid (*signal(int, void (*)(int)))(int);\nchar *(*(*x[2])(void))[4];\n";
    assert_eq!(roundtrip(src), src);
}

#[test]
fn layout_and_line_map() {
    let src = "int x;\nint f(int a)\n{\n  if (a)\n    x = 1;\n  else { x = 2; }\n  while (a--) x++;\n  return x;\n}\n";
    let unit = parse(src);
    let p = print_unit(&unit);
    let expected = "int x;\n\
int f(int a) {\n  if (a)\n    x = 1;\n  else {\n    x = 2;\n  }\n  while (a--)\n    x++;\n  return x;\n}\n\n";
    assert_eq!(p.text, expected);
    assert_eq!(p.origins.len(), p.text.lines().count());
    // Line i of the output maps back to the source line of the node that began it.
    let src_line = |off: usize| src[..off].matches('\n').count() + 1;
    let mapped: Vec<Option<usize>> = p
        .origins
        .iter()
        .map(|o| o.source().map(|s| src_line(s.start)))
        .collect();
    assert_eq!(
        mapped,
        vec![
            Some(1), // int x;
            Some(2), // int f(int a) {
            Some(4), // if (a)
            Some(5), // x = 1;
            Some(4), // else {   (started by `else`: the enclosing if)
            Some(6), // x = 2;
            Some(6), // }
            Some(7), // while (a--)
            Some(7), // x++;
            Some(8), // return x;
            Some(3), // }  (the body)
            None,    // blank line after the function
        ]
    );
}

fn first_return_expr(src: &str) -> String {
    let unit = parse(src);
    for ext in &unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
            if let Statement::Compound(items) = &f.node.statement.node {
                for it in items {
                    if let BlockItem::Statement(s) = &it.node {
                        if let Statement::Return(Some(e)) = &s.node {
                            return expr_to_string(&e.node);
                        }
                    }
                }
            }
        }
    }
    panic!("no return in {}", src)
}

/// `e` written with minimal parentheses prints back unchanged.
fn check_expr(e: &str) {
    let src = format!(
        "int a, b, c, d, *p, **pp, arr[4]; int f(int, int); struct s {{ int m; }} sv, *sp;\n\
         int g(void) {{ return {}; }}",
        e
    );
    assert_eq!(first_return_expr(&src), e);
}

#[test]
fn expr_precedence() {
    for e in [
        "a - (b - c)",
        "a - b - c",
        "a * (b + c)",
        "a * b + c",
        "(a = b) == c",
        "-(-a)",
        "-(--a)",
        "+(+a)",
        "- ++a".replace(' ', "").as_str(),
        "!!a",
        "*&a",
        "&(&a) != 0",
        "*p++",
        "(*p)++",
        "++*p",
        "**pp",
        "f((a, b), c)",
        "a, b",
        "a ? b : c ? d : a",
        "(a ? b : c) ? d : a",
        "a ? (b, c) : d",
        "a ? b : (c = d)",
        "(int)(-a)",
        "(int)(a + b)",
        "(int)sv.m",
        "(char)(*p)",
        "sizeof(a + b)",
        "sizeof(int)",
        "sizeof(-a)",
        "a << 1 >> 2",
        "a << (1 >> 2)",
        "a & b | c ^ d",
        "a & (b | c)",
        "(a || b) && c",
        "a || b && c",
        "sp->m + sv.m",
        "(&sv)->m",
        "arr[a ? b : c]",
        "(p + 1)[0]",
        "f(a, b)(0)".replace("(0)", "").as_str(),
        "a = b = c",
        "(a += b) * 2",
        "a < b == c > d",
        "-arr[0]",
        "~-a",
        "(unsigned char)(long)a",
    ] {
        check_expr(e);
    }
}

#[test]
fn string_helpers() {
    let unit = parse(
        "struct pt { int x; }; int f(void) { static const struct pt *q[2] = { 0 }; if (q[0]) return 1; else return 2; }\n\
         long g(void) { return (long)(struct pt *)0; }",
    );
    let mut decls = Vec::new();
    let mut stmts = Vec::new();
    let mut tnames = Vec::new();
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => decls.push(declaration_to_string(&d.node)),
            ExternalDeclaration::FunctionDefinition(f) => {
                if let Statement::Compound(items) = &f.node.statement.node {
                    for it in items {
                        match &it.node {
                            BlockItem::Declaration(d) => decls.push(declaration_to_string(&d.node)),
                            BlockItem::Statement(s) => {
                                stmts.push(statement_to_string(&s.node));
                                if let Statement::Return(Some(e)) = &s.node {
                                    if let Expression::Cast(c) = &e.node {
                                        tnames.push(type_name_to_string(&c.node.type_name.node));
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
    }
    assert_eq!(
        decls,
        vec![
            "struct pt {\n  int x;\n};".to_string(),
            "static const struct pt *q[2] = {0};".to_string()
        ]
    );
    assert_eq!(
        stmts,
        vec![
            "if (q[0])\n  return 1;\nelse\n  return 2;".to_string(),
            "return (long)(struct pt *)0;".to_string()
        ]
    );
    assert_eq!(tnames, vec!["long".to_string()]);
}
