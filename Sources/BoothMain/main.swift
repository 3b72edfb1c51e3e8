print("booth")
