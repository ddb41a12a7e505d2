# Digest auth: this code cannot answer the server's Digest challenge, so it sends no credentials.
# Send the request from Ferry, or use a client with Digest support (for example curl --digest -u USER:PASSWORD).
import httpx

url = "https://api.example.com/private"

response = httpx.request("GET", url)

print(response.status_code)
print(response.text)
