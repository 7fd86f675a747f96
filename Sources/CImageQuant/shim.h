#include <libimagequant.h>

/* libimagequant runs parts of its work on OpenMP threads, and their number
   changes its floating-point sums and so its palettes. Setting the calling
   thread's OpenMP thread count to 1 makes the results the same on every
   machine. (Declared here: omp.h is not on Swift's C include path.) */
void omp_set_num_threads(int num_threads);
