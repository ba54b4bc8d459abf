//! Front end: read a C file, preprocess it, parse it with lang-c (GNU C11), keep a source map.
//!
//! * `.i` input is read as already preprocessed; any other input goes through `gcc -E`
//!   with the user's `-I`/`-D`/`-U` options.
//! * [`fixup`] makes the few GNU spellings lang-c lacks readable, recording every edit.
//! * [`crate::source_map::SourceMap`] maps offsets of the parsed text back to the user's files.
//!
//! Parse failures become [`Error`]s that name the construct and the original location.
//! This module and `cbmc` are the only ones that touch files and processes.

pub mod cpp_options;
pub mod fixup;
pub mod gnu;
pub mod knr;
pub mod link;
mod link_types;
pub mod nesting;
pub mod openmp;
mod reserved;

use crate::diag::{Error, ErrorKind, Result};
use crate::origin::{shift_spans, BUILTIN_BASE};
use crate::source_map::{Edit, SourceMap};
use lang_c::ast::{ExternalDeclaration, TranslationUnit, TypeSpecifier};
use lang_c::driver::{parse_preprocessed, Config};
use lang_c::span::Span;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// Options of the front end.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `-I`, `-D`, `-U` options passed to the preprocessor.
    pub cpp_args: Vec<String>,
    /// Treat the input as preprocessed even without `.i` suffix.
    pub preprocessed: bool,
    /// The size of an OpenMP team no `num_threads` clause or `omp_set_num_threads` call
    /// sizes (`--omp-threads`; [`openmp::DEFAULT_TEAM`] when not given).
    pub omp_threads: Option<usize>,
}

/// A parsed program with everything needed to point back into the user's source.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub path: PathBuf,
    /// The text lang-c parsed (prelude + fixed-up preprocessed program).
    pub text: String,
    pub unit: TranslationUnit,
    pub map: SourceMap,
    /// The size of the OpenMP teams the program does not size (`--omp-threads`), when it
    /// has such a `parallel` region: a bound the answer states.
    pub omp_threads: Option<usize>,
    /// The OpenMP block constructs (offsets in `text`), for naming an access's construct.
    pub omp_constructs: Vec<openmp::Construct>,
    /// The unit before the OpenMP lowering, kept when the program has a team it does not
    /// size (one file only), so that [`Parsed::with_omp_team`] can lower it again.
    pub omp_unlowered: Option<Arc<TranslationUnit>>,
}

impl Parsed {
    /// Whether the program was preprocessed for a 32-bit target: its file-scope
    /// `typedef unsigned int size_t;` (as glibc's headers give under `-m32`; a 64-bit
    /// target's is `unsigned long`). `None` where it defines no `size_t`. A `.i` file
    /// checked with the other data model has a `malloc` that CBMC's library rejects.
    pub fn size_t_is_32_bit(&self) -> Option<bool> {
        use crate::syntax::build::{declarator_name, is_typedef, type_specifiers};
        self.unit.0.iter().find_map(|ext| {
            let ExternalDeclaration::Declaration(d) = &ext.node else {
                return None;
            };
            let named = (d.node.declarators.iter())
                .any(|i| declarator_name(&i.node.declarator.node) == Some("size_t"));
            if !is_typedef(&d.node) || !named {
                return None;
            }
            match type_specifiers(&d.node.specifiers).as_slice() {
                [TypeSpecifier::Unsigned] | [TypeSpecifier::Unsigned, TypeSpecifier::Int] => {
                    Some(true)
                }
                t if t.contains(&&TypeSpecifier::Long) => Some(false),
                _ => None,
            }
        })
    }

    /// The program with `team` threads in the OpenMP teams it does not size: its unit
    /// before the lowering lowered again (the deepening's team dimension). `None` where
    /// the program has no such team or was linked from several files.
    pub fn with_omp_team(&self, team: usize) -> Option<Result<Parsed>> {
        let unlowered = self.omp_unlowered.as_ref()?;
        self.omp_threads?;
        Some(
            self.lowered_again(unlowered, team, openmp::Mode::Lanes)
                .map(|(p, _)| p),
        )
    }

    /// [`ProofView`] of the program, lowered again from its unit before the lowering.
    pub fn proof_view(&self) -> Option<Result<ProofView>> {
        let unlowered = self.omp_unlowered.as_ref()?;
        let team = self.omp_threads.unwrap_or(2);
        match self.lowered_again(unlowered, team, openmp::Mode::FoldSimd) {
            Ok((_, simd_bodies)) if simd_bodies.is_empty() => None,
            Ok((parsed, simd_bodies)) => Some(Ok(ProofView {
                parsed,
                simd_bodies,
            })),
            Err(e) => Some(Err(e)),
        }
    }

    /// The unit before the lowering, `unlowered`, lowered again with `team` and `mode`, and
    /// the `simd` bodies it left plain ([`openmp::Lowered::folded_simd`]).
    fn lowered_again(
        &self,
        unlowered: &TranslationUnit,
        team: usize,
        mode: openmp::Mode,
    ) -> Result<(Parsed, Vec<(usize, usize)>)> {
        let mut unit = TranslationUnit::clone(unlowered);
        let lowered =
            lower_unit(&mut unit, Some(unlowered), &self.text, team, mode).map_err(|mut e| {
                e.source = Some(Arc::new(self.map.clone()));
                e
            })?;
        let parsed = Parsed {
            path: self.path.clone(),
            text: self.text.clone(),
            unit,
            map: self.map.clone(),
            omp_threads: lowered.omp_threads,
            omp_constructs: lowered.constructs,
            omp_unlowered: self.omp_unlowered.clone(),
        };
        Ok((parsed, lowered.folded_simd))
    }
}

/// The program as the static proof sees it: its `simd` loops inside regions plain loops
/// of their threads ([`openmp::Mode::FoldSimd`]), with their bodies' spans (start, end).
/// `None` where no `simd` loop has a lane, or the program was linked from several files.
pub struct ProofView {
    pub parsed: Parsed,
    pub simd_bodies: Vec<(usize, usize)>,
}

/// Reads, preprocesses and parses `path`.
pub fn load(path: &Path, opts: &Options) -> Result<Parsed> {
    let display = path.display().to_string();
    let pre = read_preprocessed(path, opts)?;
    let part = parse_part(&pre, &display, opts.omp_team())?;
    let map = SourceMap::new(&pre, &display, part.edits);
    Ok(Parsed {
        path: path.to_path_buf(),
        text: part.text,
        unit: part.unit,
        map,
        omp_threads: part.omp_threads,
        omp_constructs: part.omp_constructs,
        omp_unlowered: part.omp_unlowered,
    })
}

/// The preprocessed text of `path`: read as it is for `.i` input, else from `gcc -E`.
pub(crate) fn read_preprocessed(path: &Path, opts: &Options) -> Result<String> {
    let display = path.display().to_string();
    let raw = std::fs::read(path)
        .map_err(|e| Error::new(ErrorKind::Usage, format!("cannot read `{display}`: {e}")))?;
    if path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| CPP_EXTENSIONS.contains(&e))
    {
        return Err(Error::new(
            ErrorKind::Unsupported,
            format!("C++ is not supported: `{display}` is a C++ file; ladr checks C programs"),
        ));
    }
    let is_i = opts.preprocessed || path.extension().is_some_and(|e| e == "i");
    let pre = if is_i {
        String::from_utf8_lossy(&raw).into_owned()
    } else {
        preprocess(path, &opts.cpp_args)?
    };
    Ok(openmp::replace_omp_header(&pre))
}

/// Parses preprocessed text; `file` names it for locations without line markers.
pub fn parse_text(pre: &str, file: &str) -> Result<(String, TranslationUnit, SourceMap)> {
    let part = parse_any(pre, file, openmp::DEFAULT_TEAM, Names::Any)?;
    let map = SourceMap::new(pre, file, part.edits);
    Ok((part.text, part.unit, map))
}

/// Parses embedded C text (already preprocessed) as built-in code: every node's span is
/// moved into the built-in region. `name` names the text in parse errors.
pub fn builtin_unit(text: &str, name: &str) -> Result<TranslationUnit> {
    let (_, mut unit, _) = parse_text(text, name)?;
    shift_spans(&mut unit, BUILTIN_BASE);
    Ok(unit)
}

/// One file parsed on its own, before its source map is built (so that several can share
/// one map, see [`link`]).
pub(crate) struct Part {
    /// The text lang-c parsed: the prelude and the fixed-up preprocessed text.
    pub text: String,
    pub unit: TranslationUnit,
    /// The fix-up edits that turned `pre` into `text`.
    pub edits: Vec<Edit>,
    /// [`Parsed::omp_threads`] of this file.
    pub omp_threads: Option<usize>,
    /// [`Parsed::omp_constructs`] of this file.
    pub omp_constructs: Vec<openmp::Construct>,
    /// [`Parsed::omp_unlowered`] of this file.
    pub omp_unlowered: Option<Arc<TranslationUnit>>,
}

impl Options {
    /// The OpenMP team size when the program sets none.
    pub(crate) fn omp_team(&self) -> usize {
        self.omp_threads.unwrap_or(openmp::DEFAULT_TEAM)
    }
}

/// Which names a text may spell.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Names {
    /// A user's file: none with the reserved prefix ([`reserved`]).
    User,
    /// Built-in text (the model) and test fixtures.
    Any,
}

/// Fixes up and parses the user's preprocessed text `pre` (an OpenMP team the program does
/// not size has `omp_team` threads); errors carry the file's own map.
pub(crate) fn parse_part(pre: &str, file: &str, omp_team: usize) -> Result<Part> {
    parse_any(pre, file, omp_team, Names::User)
}

/// [`parse_part`] of a text that may spell `names`.
fn parse_any(pre: &str, file: &str, omp_team: usize, names: Names) -> Result<Part> {
    let (fixed, mut edits) = fixup::fixup(pre);
    let prelude = fixup::prelude(&fixed);
    if !prelude.text.is_empty() {
        for e in &mut edits {
            e.at += prelude.text.len();
        }
        edits.insert(
            0,
            Edit {
                at: 0,
                removed: 0,
                inserted: prelude.text.len(),
            },
        );
    }
    let text = format!("{}{}", prelude.text, fixed);
    let map = || Arc::new(SourceMap::new(pre, file, edits.clone()));
    // Before parsing: the parser and the passes recurse once per level of nesting.
    if let Some(at) = nesting::too_deep(&text) {
        let mut e = Error::new(
            ErrorKind::Unsupported,
            format!(
                "too deeply nested: more than {} levels of brackets and prefix operators",
                nesting::MAX_NESTING
            ),
        )
        .at(Span::span(at, at + 1), "too deeply nested")
        .note("ladr reads at most this many levels (its parser recurses once per level)");
        e.source = Some(map());
        return Err(e);
    }
    let config = Config::with_gcc();
    match parse_preprocessed(&config, text) {
        Ok(parse) => {
            let mut unit = parse.unit;
            unit.0.drain(..prelude.decls);
            knr::to_prototypes(&mut unit);
            if names == Names::User {
                if let Err(mut e) = reserved::check(&unit) {
                    e.source = Some(map());
                    return Err(e);
                }
            }
            // Kept for lowering again with another team size, and read by the lowering
            // (OpenMP programs only: a directive or a runtime call names `omp`).
            let unlowered = parse.source.contains("omp").then(|| unit.clone());
            let lanes = openmp::Mode::Lanes;
            let lowered = match lower_unit(
                &mut unit,
                unlowered.as_ref(),
                &parse.source,
                omp_team,
                lanes,
            ) {
                Ok(l) => l,
                Err(mut e) => {
                    e.source = Some(map());
                    return Err(e);
                }
            };
            let omp_unlowered = unlowered
                .filter(|_| lowered.omp_threads.is_some() || lowered.lanes)
                .map(Arc::new);
            Ok(Part {
                text: parse.source,
                unit,
                edits,
                omp_threads: lowered.omp_threads,
                omp_constructs: lowered.constructs,
                omp_unlowered,
            })
        }
        Err(e) => Err(syntax_error(&e.source, e.offset, &e.expected, &map())),
    }
}

/// The OpenMP lowering of `unit` (parsed from `text`) with teams the program does not size
/// of `omp_team` threads, then `__auto_type` resolved; errors without a source map.
/// `original`: `unit` as parsed, where the caller keeps a copy (see [`openmp::lower`]).
fn lower_unit(
    unit: &mut TranslationUnit,
    original: Option<&TranslationUnit>,
    text: &str,
    omp_team: usize,
    mode: openmp::Mode,
) -> Result<openmp::Lowered> {
    let lowered = openmp::lower_with(unit, original, text, omp_team, mode)
        .map_err(|(span, what)| Error::unsupported(span, format!("OpenMP: {what}")))?;
    resolve_auto_type(unit)
        .map_err(|span| Error::unsupported(span, "`__auto_type` without an initialiser"))?;
    Ok(lowered)
}

/// `__auto_type x = init;` (parsed with `__auto_type` as a type name, see
/// [`fixup::AUTO_TYPE`]) → `__typeof__(init) x = init;`, which means the same (the
/// operand of `__typeof__` is not evaluated) and which lang-c, the passes and CBMC read.
/// A declaration without an initialiser is an error at its span (gcc rejects it too).
fn resolve_auto_type(unit: &mut TranslationUnit) -> std::result::Result<(), Span> {
    use crate::syntax::walk::visit_mut::{self, VisitorMut};
    use crate::syntax::walk::Walk;
    use lang_c::ast::*;
    use lang_c::span::Node;
    struct AutoTypeResolver;
    impl VisitorMut for AutoTypeResolver {
        type Error = Span;
        fn declaration(&mut self, d: &mut Node<Declaration>) -> std::result::Result<Walk, Span> {
            let is_auto = |s: &Node<DeclarationSpecifier>| {
                matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t)
                    if matches!(&t.node, TypeSpecifier::TypedefName(n) if n.node.name == fixup::AUTO_TYPE))
            };
            let Some(at) = d.node.specifiers.iter().position(is_auto) else {
                return Ok(Walk::Descend);
            };
            let init = match d.node.declarators.as_slice() {
                [one] => match &one.node.initializer {
                    Some(Node {
                        node: Initializer::Expression(e),
                        ..
                    }) => (**e).clone(),
                    _ => return Err(d.span),
                },
                _ => return Err(d.span),
            };
            let span = d.node.specifiers[at].span;
            d.node.specifiers[at] = Node::new(
                DeclarationSpecifier::TypeSpecifier(Node::new(
                    TypeSpecifier::TypeOf(Node::new(TypeOf::Expression(init), span)),
                    span,
                )),
                span,
            );
            Ok(Walk::Descend)
        }
    }
    visit_mut::unit(&mut AutoTypeResolver, unit)
}

fn preprocess(path: &Path, cpp_args: &[String]) -> Result<String> {
    // `-x c`: the input is C whatever its name (without it gcc takes `prog.txt` or a file
    // without an extension for linker input and preprocesses nothing).
    // Every option passes the allow-list, whoever wrote it (`ladr.toml`, a compile
    // database, a swarm manifest): gcc runs programs its options name (`-wrapper`).
    let checked = cpp_options::check(cpp_args).map_err(|(_, m)| Error::new(ErrorKind::Usage, m))?;
    // A path gcc could read as an option (`-rf.c`) or a response file (`@opts.c`) is passed
    // as `./-rf.c`. No output option: the text comes on stdout, and nothing of the input
    // names an auxiliary file (`-dumpbase`, `-M*` are not on the list); the environment's
    // dependency-output variables are removed for the same reason.
    let arg_path = if cpp_options::looks_like_option(&path.to_string_lossy()) {
        Path::new(".").join(path)
    } else {
        path.to_path_buf()
    };
    // `-fopenmp`: `_OPENMP` defined as a compiler with OpenMP defines it, so a program's
    // `#ifdef _OPENMP` pragmas stay and are refused like unguarded ones (without it a racy
    // OpenMP program lost its pragmas and was "no race").
    let out = Command::new("gcc")
        .arg("-E")
        .arg("-fopenmp")
        .args(cpp_options::args(&checked))
        .args(["-x", "c"])
        .arg(&arg_path)
        .env_remove("DEPENDENCIES_OUTPUT")
        .env_remove("SUNPRO_DEPENDENCIES")
        .output()
        .map_err(|e| Error::new(ErrorKind::Usage, format!("cannot run `gcc -E`: {e}")))?;
    if !out.status.success() {
        return Err(Error::new(
            ErrorKind::Syntax,
            format!(
                "the preprocessor failed on `{}`:\n{}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            ),
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Names the construct at a syntax error where we can recognise it.
fn syntax_error(
    text: &str,
    offset: usize,
    expected: &std::collections::HashSet<&'static str>,
    map: &SourceMap,
) -> Error {
    let rest = &text[offset.min(text.len())..];
    let before = text[..offset.min(text.len())].trim_end();
    let token = first_token(rest);
    let (what, note) = if rest.starts_with(':') && before.ends_with('?') {
        (
            "the GNU conditional with omitted middle operand `x ?: y`".to_string(),
            Some("write `x ? x : y` (if `x` has no side effects)"),
        )
    } else if rest.starts_with("&&") {
        (
            "a label address `&&label` (GNU computed goto)".to_string(),
            None,
        )
    } else if rest.starts_with('*') && ends_with_word(before, "goto") {
        (
            "a computed goto `goto *expression` (GNU labels as values)".to_string(),
            None,
        )
    } else if rest.starts_with('$') {
        ("`$` in an identifier".to_string(), None)
    } else if is_cpp(&token) && map.lookup(offset).file.contains("c++")
        || CPP_ONLY.contains(&token.as_str())
    {
        let mut e = Error::new(
            ErrorKind::Unsupported,
            "C++ is not supported: ladr checks C programs",
        )
        .at(
            Span::span(offset, offset + token.len().max(1)),
            format!("`{token}` is C++"),
        );
        e.source = Some(Arc::new(map.clone()));
        return e;
    } else {
        // The full set of tokens the parser would have accepted (lang-c's set, without its
        // empty end-of-input entry), so the fix (often a missing `;`) is among them.
        let mut exp: Vec<_> = expected.iter().copied().filter(|t| !t.is_empty()).collect();
        exp.sort();
        let exp = exp.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>();
        return Error {
            kind: ErrorKind::Syntax,
            message: format!("syntax error at `{token}`"),
            span: Some((
                Span::span(offset, offset + token.len()),
                "not understood here".into(),
            )),
            notes: vec![format!("expected one of {}", exp.join(", "))],
            source: Some(Arc::new(map.clone())),
        };
    };
    let mut e = Error::unsupported(Span::span(offset, offset + token.len().max(1)), what);
    if let Some(n) = note {
        e = e.note(n);
    }
    e.source = Some(Arc::new(map.clone()));
    e
}

/// Whether `text` ends with the whole word `word` (`goto`, not `xgoto`).
fn ends_with_word(text: &str, word: &str) -> bool {
    text.strip_suffix(word).is_some_and(|b| {
        !b.chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The token at the start of `rest` as the user wrote it (an identifier, a number, `::`, a
/// two-character operator, or one character).
fn first_token(rest: &str) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let first = rest.chars().next().unwrap_or(' ');
    if word(first) {
        let t: String = rest.chars().take_while(|c| word(*c)).take(40).collect();
        // `std::cout`: keep a C++ scope operator with the word before it.
        return match rest[t.len()..].strip_prefix("::") {
            Some(_) => format!("{t}::"),
            None => t,
        };
    }
    const TWO: &[&str] = &[
        "::", "->", "&&", "||", "++", "--", "<<", ">>", "==", "!=", "<=", ">=",
    ];
    match TWO.iter().find(|op| rest.starts_with(**op)) {
        Some(op) => op.to_string(),
        None => first.to_string(),
    }
}

/// Keywords of C++ that cannot start a C construct: a syntax error at one of them in a C++
/// header (or anywhere, for the unambiguous ones) means the input is C++.
const CPP_ONLY: &[&str] = &["namespace", "template", "class", "using", "typename"];

fn is_cpp(token: &str) -> bool {
    CPP_ONLY.contains(&token) || token.contains("::") || matches!(token, "public:" | "private:")
}

/// File name extensions of C++ sources and headers.
const CPP_EXTENSIONS: &[&str] = &["cc", "cpp", "cxx", "c++", "C", "hpp", "hh", "hxx"];

/// Number of external declarations that are function definitions (for statistics).
pub fn function_count(unit: &TranslationUnit) -> usize {
    unit.0
        .iter()
        .filter(|d| matches!(d.node, ExternalDeclaration::FunctionDefinition(_)))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_t_tells_the_data_model() {
        let model = |text: &str| {
            let (_, unit, map) = parse_text(text, "t.i").unwrap();
            let parsed = Parsed {
                path: PathBuf::from("t.i"),
                text: text.to_string(),
                unit,
                map,
                omp_threads: None,
                omp_constructs: vec![],
                omp_unlowered: None,
            };
            parsed.size_t_is_32_bit()
        };
        assert_eq!(model("typedef unsigned int size_t;\n"), Some(true));
        assert_eq!(model("typedef unsigned size_t;\n"), Some(true));
        assert_eq!(model("typedef unsigned long size_t;\n"), Some(false));
        assert_eq!(model("typedef long unsigned int size_t;\n"), Some(false));
        // Spelled through another name, or not a typedef: no evidence.
        assert_eq!(
            model("typedef unsigned long __sz;\ntypedef __sz size_t;\n"),
            None
        );
        assert_eq!(model("unsigned int size_t;\n"), None);
        assert_eq!(model("int x;\n"), None);
    }

    #[test]
    fn parses_with_comments_and_dollars() {
        let (_, unit, _) =
            parse_text("// c\nint a$b; /* x */ int main(void){return 0;}\n", "t.i").unwrap();
        assert_eq!(unit.0.len(), 2);
    }

    #[test]
    fn prelude_removed_from_ast() {
        let (_, unit, map) = parse_text("__int128 f(void);\nint x;\n", "t.i").unwrap();
        assert_eq!(unit.0.len(), 2);
        let second = &unit.0[1];
        assert_eq!(map.lookup(second.span.start).to_string(), "t.i:2:1");
    }

    #[test]
    fn auto_type_becomes_typeof() {
        let (_, unit, _) = parse_text(
            "int x; void f(void) { __auto_type p = (&x); *p = 1; }\n",
            "t.i",
        )
        .unwrap();
        let text = crate::print::print_unit(&unit).text;
        assert!(
            text.contains("__typeof__(&x) p = (&x)") || text.contains("__typeof__(&x) p = &x"),
            "{text}"
        );
        let err = parse_text("void f(void) { __auto_type p; }\n", "t.i").unwrap_err();
        assert!(err.message.contains("__auto_type"), "{}", err.message);
    }

    #[test]
    fn elvis_is_named() {
        let err = parse_text("int f(int x) {\n  return x ?: 1;\n}\n", "t.i").unwrap_err();
        assert_eq!(err.kind, ErrorKind::Unsupported);
        assert!(err.message.contains("?:"), "{}", err.message);
        assert_eq!(
            err.loc(&SourceMap::new(
                "int f(int x) {\n  return x ?: 1;\n}\n",
                "t.i",
                vec![]
            ))
            .unwrap()
            .line,
            2
        );
    }

    #[test]
    fn label_address_is_named() {
        let err = parse_text("void f(void){ void *p = &&l; l: ; }", "t.i").unwrap_err();
        assert!(err.message.contains("&&label"), "{}", err.message);
    }

    /// [`builtin_unit`] moves every span into the built-in region; [`parse_text`] leaves them in
    /// the user's.
    #[test]
    fn builtin_lines_are_builtin_and_user_lines_are_source() {
        use crate::origin::Origin;
        use crate::print::print_unit;
        let unit = builtin_unit("int f(int x) {\n  return x + 1;\n}\n", "<model>").unwrap();
        let p = print_unit(&unit);
        assert!(p.origins.iter().all(|o| !matches!(o, Origin::Source(_))));
        assert!(p.origins.iter().any(|o| matches!(o, Origin::Builtin(_))));
        let (_, unit, _) = parse_text("int g;\nint h(void) { return g; }\n", "t.c").unwrap();
        let p = print_unit(&unit);
        assert!(p.origins.iter().any(|o| matches!(o, Origin::Source(_))));
        assert!(p.origins.iter().all(|o| !matches!(o, Origin::Builtin(_))));
        assert_eq!(Origin::of(Span::none()), Origin::Generated);
    }
}
