/* A library with a test `main` of its own: library mode does not run it. */
int shared;
void touch(void) { shared = 1; }
int main(void) { touch(); return 0; }
