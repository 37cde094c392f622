/* play.c - what the games' play tables share. */
#include "play.h"

unsigned play_random(unsigned *rng)
{
    /* A linear congruential step; its high bits are the better ones. */
    *rng = *rng * 1103515245u + 12345u;
    return *rng >> 16;
}
