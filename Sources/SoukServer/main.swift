print("souk-server")
