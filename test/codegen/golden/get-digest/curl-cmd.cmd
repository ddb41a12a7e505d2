REM Digest auth: this code cannot answer the server's Digest challenge, so it sends no credentials.
REM Send the request from Ferry, or use a client with Digest support (for example curl --digest -u USER:PASSWORD).
curl.exe https://api.example.com/private
