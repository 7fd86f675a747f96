// Benchmark driver for the scripts under bench/ (not shipped in the image).
print("pagedots-bench: nothing yet")
