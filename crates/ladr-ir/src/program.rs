//! The value that flows through the passes: the AST plus what earlier passes learned.
//!
//! Each pass is `fn run(Program, &Options) -> Result<Program>`; a field is filled by the pass
//! named in its comment and only read by later ones.

use ladr_c::syntax::names::Names;
use lang_c::ast::{Declaration, Statement, TranslationUnit};
use lang_c::span::{Node, Span};

/// The largest round-robin rounds K accepted (command line, `ladr.toml`, swarm manifest).
pub const MAX_ROUNDS: u32 = 100;
/// The largest loop unwinding and recursion depth U, and the largest `--max-unwind`.
pub const MAX_UNWIND: u32 = 1000;
/// The most swarm instances (`ladr swarm emit -n`, a manifest's `instances`).
pub const MAX_INSTANCES: u32 = 100_000;

/// Why `rounds`, `unwind` or `max_unwind` are out of range (the limits above), if they are.
pub fn check_bounds(rounds: u32, unwind: u32, max_unwind: u32) -> Result<(), String> {
    if !(1..=MAX_ROUNDS).contains(&rounds) {
        return Err(format!("rounds = {rounds}: give 1 to {MAX_ROUNDS}"));
    }
    if unwind > MAX_UNWIND {
        return Err(format!("unwind = {unwind}: give 0 to {MAX_UNWIND}"));
    }
    if max_unwind > MAX_UNWIND {
        return Err(format!("max_unwind = {max_unwind}: give 0 to {MAX_UNWIND}"));
    }
    Ok(())
}

/// Bounds and switches of the translation.
#[derive(Clone, Debug)]
pub struct Options {
    /// Round-robin rounds K.
    pub rounds: u32,
    /// Loop unwinding and recursion depth U.
    pub unwind: u32,
    /// Loops with a constant bound up to this many iterations are unwound completely.
    pub max_unwind: u32,
    /// Check the invariants between passes (`ladr_seq::invariants`), as debug builds always
    /// do (`--check-ir`).
    pub check_ir: bool,
    /// Pairs of accesses not to report again (unordered; `[a, a]` is an access racing with
    /// itself in two threads): the `race` pass never records a race between them, so CBMC
    /// finds another pair or none (`ladr_check`'s search for more races).
    pub exclude: Vec<[AccessKey; 2]>,
    /// The C library's allocation functions may fail (`--malloc-may-fail`; `threads`,
    /// `library::allocation_failure`: `malloc`, `calloc`, `realloc`, `strdup`, … return a
    /// null pointer, `posix_memalign` ENOMEM): otherwise they always succeed.
    pub malloc_may_fail: bool,
    /// The bytes of a heap block whose size is computed at run time (`--heap-block`):
    /// an execution that allocates more is not explored (a `heap-size` cut; CBMC 6.6
    /// crashes on blocks of a symbolic size, see `__ladr_malloc` in the model).
    pub heap_block: u32,
    /// Translate the vacuity query instead of the race check: no race instrumentation
    /// (`pipeline` skips `race`), one context of `main`, and one assertion that fails
    /// when `main` creates a thread (`lazy`). CBMC's "verified" then means that no
    /// execution within the bounds creates a thread: a "no race" at them is vacuous.
    pub vacuity_query: bool,
    /// Run the race-free pre-analysis (`passes::racefree`; on unless `--no-racefree`): no
    /// instrumentation, no visibility for what cannot race.
    pub racefree: bool,
    /// Use the static proof's per-object verdicts in the bounded program (`pipeline` runs
    /// `prove` after `normalise`, [`Program::proved`]; on with the command line's proof,
    /// off by default): an object proved race-free is not instrumented, a statement that
    /// touches only such objects (plainly) is not visible (`docs/decisions/static.md`).
    pub proof_facts: bool,
    /// Those verdicts, computed once per check (`ladr_check::check` runs the proof first)
    /// and handed to each of its translations as data; none: a translation with
    /// `proof_facts` computes them itself (`--emit`, a translation outside a check).
    pub proved: Option<Proved>,
    /// At most this many threads besides `main` (`--max-threads`): a `pthread_create`
    /// beyond them is not run (a [`CutKind::Threads`] cut, the executions that reach it
    /// are not explored). `None`: only the model's limit ([`CutKind::ThreadCount`]).
    pub max_threads: Option<u32>,
    /// `unwind` runs loops copies would cut as one iteration, any (`unwind::sample`);
    /// off for the translation again of a program whose sampled loops write what decides
    /// something (`Program::sampled`).
    pub sample_loops: bool,
    /// The prefix probe's bound (`lazy`): each slot runs at most its first `prefix` visible
    /// statements and then waits for ever (its contexts end there, no join of it returns).
    /// Only a race found so is an answer: it is one of the program's executions, cut short.
    pub prefix: Option<u32>,
}

/// The default of `Options::heap_block` (`--heap-block`).
pub const DEFAULT_HEAP_BLOCK: u32 = 128;

/// The command line's `--max-threads` when none is given (not in SV-COMP mode): two
/// threads race, and a third and fourth that set up or hand over state cover the real
/// harnesses' pools and queues; each slot more is one more copy of a thread's code per round.
pub const DEFAULT_MAX_THREADS: u32 = 4;

/// An access by the source span of its lvalue ([`Site::span`], offsets in the parsed text):
/// every copy of one access in the bounded program (inlined, unwound, one per slot) has the
/// same key, since the copier keeps spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AccessKey {
    pub start: usize,
    pub end: usize,
}

impl From<Span> for AccessKey {
    fn from(s: Span) -> Self {
        AccessKey {
            start: s.start,
            end: s.end,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rounds: 2,
            unwind: 2,
            max_unwind: 100,
            check_ir: false,
            malloc_may_fail: false,
            heap_block: DEFAULT_HEAP_BLOCK,
            vacuity_query: false,
            racefree: true,
            proof_facts: false,
            proved: None,
            exclude: vec![],
            max_threads: None,
            sample_loops: true,
            prefix: None,
        }
    }
}

/// Why the bounded program stops exploring at some point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutKind {
    /// A loop ran out of unwindings.
    Loop,
    /// Recursion deeper than the unwind bound.
    Recursion,
    /// A call through a function pointer whose candidate target is a function already
    /// running on the call stack (a start routine whose address is taken, say): that
    /// target is not followed beyond the unwind bound, though the program need not recurse.
    FunctionPointer,
    /// Thread creation nested deeper than the bound.
    ThreadNesting,
    /// More threads than the model has slots (`MAX_SLOTS`).
    ThreadCount,
    /// More threads than `--max-threads` ([`Options::max_threads`]): the creations beyond
    /// it are not run.
    Threads,
    /// A heap object whose size is not a constant is at most 128 bytes
    /// (`model/pthread.c`, `__ladr_malloc` and its siblings for `calloc`, `valloc`,
    /// `realloc` and `posix_memalign`): larger requests are not explored.
    HeapSize,
    /// `main`'s command line has at most 4 arguments of at most 15 characters
    /// (`model/pthread.c`, `__ladr_main_args`).
    Arguments,
    /// A thread's exit runs each key destructor as often as the program has
    /// `pthread_key_create` sites naming it; exits with more such keys set (a site in a
    /// function several threads run) are not explored (`threads::run_destructors`).
    KeyDestructors,
}

/// A place where the bounded program assumes the bound is not exceeded
/// (`__CPROVER_assume(...)` emitted there).
#[derive(Clone, Debug)]
pub struct Cut {
    pub kind: CutKind,
    /// The loop / call / create statement in the user's source.
    pub span: Span,
}

/// A function without a body whose result the program uses: CBMC gives it any value of its
/// type (recorded by `threads`, reported as an assumption of the verdict).
#[derive(Clone, Debug)]
pub struct Assumption {
    pub function: String,
    /// The first call (in the user's source).
    pub span: Span,
    /// What the result is taken to be.
    pub result: AssumedResult,
}

/// What ladr takes the result of a function without a body to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssumedResult {
    /// Any value of its type (CBMC's choice for a function without a body).
    AnyValue,
    /// A pointer to an object: a null pointer or a fresh object of any size (an array of
    /// any length of the pointee type; one byte for an incomplete type), never one of the
    /// program's objects (a pointer that may point to
    /// any object makes every access through it costly for CBMC, and may meet the program's
    /// own objects: false races).
    FreshObject,
}

/// One thread slot of the bounded program (filled by `threads`).
#[derive(Clone, Debug)]
pub struct Slot {
    /// Slot number; 0 is `main`.
    pub index: usize,
    /// Name of the slot's function in the bounded program.
    pub function: String,
    /// The user's start routine (`main` for slot 0).
    pub routine: String,
    /// The `pthread_create` call that creates this slot (none for slot 0).
    pub created_at: Option<Span>,
    /// The slot that contains the create site.
    pub parent: Option<usize>,
}

/// One element of a flattened slot body (built by `visible`, instrumented by `race`,
/// turned into code by `lazy`).
#[derive(Clone, Debug)]
pub enum Item {
    /// A visible statement with its label number.
    Visible {
        label: u32,
        stmt: Node<Statement>,
        /// An atomic section (`__VERIFIER_atomic_*`): its accesses are atomic.
        atomic: bool,
    },
    /// A statement without shared accesses.
    Plain(Node<Statement>),
    /// A goto target.
    Label(String, Span),
    /// A declaration that stays in the body (typedefs, extern declarations).
    Decl(Node<Declaration>),
}

/// One slot's code as visible statements and the rest.
#[derive(Clone, Debug, Default)]
pub struct SlotCode {
    pub items: Vec<Item>,
    /// Number of visible statements (labels `0..size`).
    pub size: u32,
}

/// One instrumented access (built by `race`; the report names the racing pair by id).
#[derive(Clone, Debug)]
pub struct Site {
    pub id: u32,
    pub slot: usize,
    /// Visible statement label.
    pub label: u32,
    /// The lvalue in the parsed text.
    pub span: Span,
    /// The lvalue as C text (user names); for the hidden state of a C library function,
    /// its description (`libc's state of `strtok``).
    pub expr: String,
    pub write: bool,
    pub atomic: bool,
    /// The access is of the hidden static state of an MT-Unsafe C library function, by a
    /// call of this one (`strtok`), at `span`, the call's ([`Program::libc_calls`]).
    pub libc_state: Option<String>,
    /// The variables `expr` names, each as (the user's name, its name in the sequential
    /// program): a counterexample's values are looked up by the latter, since two
    /// variables (a user's `b` and a model function's parameter `b`) may share the first.
    pub vars: Vec<(String, String)>,
}

#[derive(Clone, Debug)]
pub struct Program {
    pub unit: TranslationUnit,
    /// Fresh-name source shared by all passes.
    pub names: Names,
    /// Bound cut points (filled by `inline`, `unwind`, `threads`).
    pub cuts: Vec<Cut>,
    /// Functions without a body whose results are any value (filled by `threads`).
    pub assumptions: Vec<Assumption>,
    /// Set-up loops of `main` made one step that gives what they write arbitrary values
    /// (filled by `unwind`): a "no race" still holds, but a race found may rest on values
    /// such a loop never stores, so it is not reported as one.
    pub summaries: Vec<Span>,
    /// Every object the set-up steps of `summaries` give arbitrary values is data-only
    /// (filled by `dataonly`): no branch and no address depends on those values, so a race
    /// found with the steps is a race of the program.
    pub exact_summaries: bool,
    /// How many of `summaries` are loops outside the set-up run as one iteration
    /// (`unwind::sample`).
    pub sampled: usize,
    /// The file-scope variables whose contents decide nothing (filled by `dataonly`; the
    /// stores into the arrays among them are dropped).
    pub data_only: std::collections::BTreeSet<String>,
    /// Thread slots (filled by `threads`).
    pub slots: Vec<Slot>,
    /// Objects of one slot (filled by `threads`): the slots' automatic locals, made `static`,
    /// and each slot's instances of `_Thread_local` objects. Private unless their address is
    /// taken or they are aggregates (`analysis`).
    pub thread_locals: std::collections::HashSet<String>,
    /// The slots' formerly automatic locals (of `thread_locals`, without the
    /// `_Thread_local` instances), filled by `threads`: `lazy` may declare one in a block
    /// of its slot (`block_locals`).
    pub automatic_locals: std::collections::HashSet<String>,
    /// Each slot's code as visible statements and the rest (filled by `visible`,
    /// instrumented by `race`, turned into functions by `lazy`).
    pub code: Vec<SlotCode>,
    /// Which variables are shared, computed by `visible` over the whole program while the
    /// slot bodies are still in the unit (used again by `race`).
    pub vars: crate::analysis::Vars,
    /// The accesses `race` instrumented, indexed by site id (filled by `race`).
    pub sites: Vec<Site>,
    /// Functions the bounded program calls instead of inlining them (filled by `inline`):
    /// no context switch can happen inside them (no visible statement, transitively), and
    /// they have no loop, backward `goto` or recursion, so they need no bound. They stay
    /// real C functions that CBMC inlines itself.
    pub kept: std::collections::BTreeSet<String>,
    /// The calls of MT-Unsafe C library functions without a body in the program, by the
    /// call's span, with the function called (filled by `threads`, which puts an access of
    /// the function's hidden state, `abi::libc_state`, at the call: the site `race` makes
    /// of it names the function).
    pub libc_calls: std::collections::BTreeMap<AccessKey, String>,
    /// The memory of each matrix with rows of a variable length, by its static's name, with
    /// the static holding its row length (filled by `threads`, `threads/vla.rs`): `race`
    /// reports `b[(i) * b_d1 + (j)]` as `b[i][j]`.
    pub vla_rows: std::collections::HashMap<String, String>,
    /// The objects the static proof shows race-free although it proves not every pair
    /// (filled after `normalise` with [`Options::proof_facts`]; read by `visible` and
    /// `racefree`).
    pub proved: Proved,
}

/// Objects of the program whose accesses the static proof (`ladr_seq::prove`) shows cannot
/// race in any execution, by the name of their file-scope declaration (every pass keeps
/// file-scope names, and one file-scope name is one object after linking) or of the C
/// library's hidden state (`abi::libc_state`). None of their accesses is instrumented.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Proved {
    /// Objects none of whose accesses is atomic: every access of them commutes with every
    /// other thread's step, so a statement touching only them (and private locals) need
    /// not be visible.
    pub plain: std::collections::BTreeSet<String>,
    /// The other objects proved: atomic ones (whose accesses order other threads' and do
    /// not commute) and the C library's states; their statements stay visible.
    pub visible: std::collections::BTreeSet<String>,
}

impl Proved {
    /// Every object proved race-free.
    pub fn all(&self) -> impl Iterator<Item = &String> {
        self.plain.iter().chain(&self.visible)
    }
}

impl Program {
    pub fn new(unit: TranslationUnit) -> Program {
        Program {
            unit,
            names: Names::new(),
            cuts: vec![],
            assumptions: vec![],
            summaries: vec![],
            exact_summaries: false,
            sampled: 0,
            data_only: Default::default(),
            slots: vec![],
            thread_locals: Default::default(),
            automatic_locals: Default::default(),
            code: vec![],
            vars: Default::default(),
            sites: vec![],
            kept: Default::default(),
            libc_calls: Default::default(),
            vla_rows: Default::default(),
            proved: Default::default(),
        }
    }

    /// How many accesses `race` instrumented: the entries of the site table but site 0,
    /// which stands for "no access".
    pub fn instrumented_accesses(&self) -> usize {
        self.sites.len().saturating_sub(1)
    }

    /// Visible statements over all slots (the sizes of `code`).
    pub fn visible_statements(&self) -> u32 {
        self.code.iter().map(|c| c.size).sum()
    }
}
