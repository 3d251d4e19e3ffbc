/* A tiny arm64 iOS dylib for the Mach-O load-command test: any code gives it __TEXT and LC_UUID. */
int mt_fixture_answer(void) { return 42; }
int mt_fixture_twice(int x) { return 2 * x; }
