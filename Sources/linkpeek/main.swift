print("linkpeek")
