# Digest auth: this code cannot answer the server's Digest challenge, so it sends no credentials.
# Send the request from Ferry, or use a client with Digest support (for example curl --digest -u USER:PASSWORD).
curl https://api.example.com/private
