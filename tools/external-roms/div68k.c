/* 32-bit division helpers for a plain 68000. Debian's m68k-linux-gnu libgcc is built for the
 * 68020 (its __divsi3 calls __udivsi3 with BSR.L, an address error on a 68000), so testpico
 * links these instead. Shift-and-subtract: no division operator, so no recursion. */
typedef unsigned long u32;

static u32 udivmod(u32 n, u32 d, u32 *rem)
{
    u32 q = 0, r = 0;
    int i;
    if (d == 0) {
        *rem = n;
        return 0xffffffff;
    }
    for (i = 31; i >= 0; i--) {
        r = (r << 1) | ((n >> i) & 1);
        if (r >= d) {
            r -= d;
            q |= (u32)1 << i;
        }
    }
    *rem = r;
    return q;
}

u32 __udivsi3(u32 n, u32 d) { u32 r; return udivmod(n, d, &r); }
u32 __umodsi3(u32 n, u32 d) { u32 r; udivmod(n, d, &r); return r; }

long __divsi3(long n, long d)
{
    u32 r, q = udivmod(n < 0 ? -(u32)n : (u32)n, d < 0 ? -(u32)d : (u32)d, &r);
    return ((n < 0) != (d < 0)) ? -(long)q : (long)q;
}

long __modsi3(long n, long d)
{
    u32 r;
    udivmod(n < 0 ? -(u32)n : (u32)n, d < 0 ? -(u32)d : (u32)d, &r);
    return n < 0 ? -(long)r : (long)r;
}
