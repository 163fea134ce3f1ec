// lizard-local entry point; filled in by the api work.
int main() { return 0; }
