//! The passes, one per module, in pipeline order (see `ARCHITECTURE.md`).
//!
//! Order and why:
//! 1. [`normalise`] first: every later pass relies on its normal form (below).
//! 2. [`inline`] before `unwind`, so loops inside called functions are unwound per call site
//!    and recursion is cut at depth U.
//! 3. [`unwind`] makes every function loop-free.
//! 4. `threads` after both, so each `pthread_create` site in the bounded program (also one
//!    produced by unwinding a loop) becomes its own slot with its own copy of the routine.
//! 5. `visible`, `lazy`, `race` build the sequential program from the slots.
//!
//! # Normal form (established by `normalise`, kept by every later pass)
//! * N1 no `switch`, `for`, `do`, `break`, `continue`; loops are `while (c) S`.
//! * N2 conditions of `if`/`while` and `return` values have no side effects.
//! * N3 an expression statement has at most one side effect, at its top:
//!   `lv = e;` `lv op= e;` `lv++;` (and the other increments) `f(a..);` `lv = f(a..);`,
//!   with `lv`, `e`, `f`, `a..` free of side effects (no assignment, increment, call or
//!   statement expression inside them, except under `sizeof`).
//! * N4 local declarations have no initialiser except `static` ones; an uninitialised
//!   automatic local is followed by `__CPROVER_havoc_object(&x);` where it is declared, or,
//!   when the next statement of its block that mentions it is `x = e;`, by that assignment.
//!   Exceptions: a local array may keep a constant initialiser (list or string literal);
//!   temporaries `__ladr_t*` get no havoc (they are always assigned before being read).
//! * N5 `__VERIFIER_atomic_begin(); … __VERIFIER_atomic_end();` sections and inlined
//!   `__VERIFIER_atomic_*` bodies are one compound statement whose first statement is
//!   `__VERIFIER_atomic_begin();` and last `__VERIFIER_atomic_end();`.
//! * N6 SV-COMP error functions are `__CPROVER_assume(0);` / `__CPROVER_assume(e);`,
//!   `__VERIFIER_assume(e)` is `__CPROVER_assume(e)`.

pub mod inline;
pub mod lazy;
pub mod normalise;
pub mod race;
pub mod threads;
pub mod unwind;
pub mod visible;
