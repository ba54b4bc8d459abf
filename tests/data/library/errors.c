/* Library mode's refusals: a variadic entry, a variable, a declared-only function. */
int level;
int log_line(const char *fmt, ...) { return level + (fmt != 0); }
void undefined_elsewhere(void);
void with_callback(int (*cb)(int)) { level = cb(level); }
int main(void) { return 0; }
