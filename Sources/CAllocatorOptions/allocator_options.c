#include "allocator_options.h"

// jemalloc reads its options from this symbol when the process starts (jemalloc(3), "malloc_conf").
//
// tcache_max: each thread keeps freed blocks of up to 256 KiB for reuse, instead of jemalloc's
// default 32 KiB. A call with a 64 KiB message allocates and frees several blocks of 64 KiB and
// more (the assembled request, its unpacked payload, the packed response); above the default
// limit each of these went to the shared arena, which costs a lock and extent bookkeeping.
const char *malloc_conf = "tcache_max:262144";
