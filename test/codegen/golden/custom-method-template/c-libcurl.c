#include <stdio.h>
#include <curl/curl.h>

int main(void) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  CURL *curl = curl_easy_init();
  if (!curl)
    return 1;
  struct curl_slist *headers = NULL;
  headers = curl_slist_append(headers, "Depth: 1");
  headers = curl_slist_append(headers, "Content-Length: 0");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_URL, "{{baseUrl}}/dav/{{folder}}\?depth={{depth}}");
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "PROPFIND");

  CURLcode result = curl_easy_perform(curl);
  if (result != CURLE_OK)
    fprintf(stderr, "%s\n", curl_easy_strerror(result));
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  curl_global_cleanup();
  return result == CURLE_OK ? 0 : 1;
}
