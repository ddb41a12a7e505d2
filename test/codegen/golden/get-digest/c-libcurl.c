// Digest auth: this code cannot answer the server's Digest challenge, so it sends no credentials.
// Send the request from Ferry, or use a client with Digest support (for example curl --digest -u USER:PASSWORD).
#include <stdio.h>
#include <curl/curl.h>

int main(void) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  CURL *curl = curl_easy_init();
  if (!curl)
    return 1;
  curl_easy_setopt(curl, CURLOPT_URL, "https://api.example.com/private");

  CURLcode result = curl_easy_perform(curl);
  if (result != CURLE_OK)
    fprintf(stderr, "%s\n", curl_easy_strerror(result));
  curl_easy_cleanup(curl);
  curl_global_cleanup();
  return result == CURLE_OK ? 0 : 1;
}
