import PagedotsService
print("pagedots")
