REM OAuth 2.0: Ferry has no cached access token for this request.
REM Get one (Auth tab, Get new access token, or the token endpoint) and put it in place of <access-token>.
curl.exe https://api.example.com/me ^
  -H ^"Authorization: Bearer ^<access-token^>^"
