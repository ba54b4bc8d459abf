//! What ladr knows about the environment of the user's program: the pthread model
//! (`pthread.c`, C code added to every sequential program by `threads`) and the memory
//! effects of C library functions that have no body in the input ([`library`]).

pub mod library;
