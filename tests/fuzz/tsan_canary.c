/* tsan_canary.c - a deliberate data race, for `make tsan` to prove that a
 * race reported by ThreadSanitizer fails a process the way the suite sees
 * it: main returns 0, and TSAN_OPTIONS must still turn that into exit
 * status 66.  The daemon ends the same way (main returns after SIGTERM), so
 * a race in it makes daemon_stop return 66, which every test asserts is 0. */
#include <pthread.h>

static int shared;

static void *bump(void *arg)
{
    (void)arg;
    shared++;
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, bump, NULL);
    shared++;
    pthread_join(t, NULL);
    return 0;
}
