// Content-Type left out: libcurl sets it with the multipart boundary.
#include <stdio.h>
#include <curl/curl.h>

int main(void) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  CURL *curl = curl_easy_init();
  if (!curl)
    return 1;
  curl_easy_setopt(curl, CURLOPT_URL, "https://api.example.com/upload");
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "POST");
  curl_mime *form = curl_mime_init(curl);
  curl_mimepart *part;
  part = curl_mime_addpart(form);
  curl_mime_name(part, "title");
  curl_mime_data(part, "Holiday", CURL_ZERO_TERMINATED);
  part = curl_mime_addpart(form);
  curl_mime_name(part, "meta");
  curl_mime_data(part, "{\"a\":1}", CURL_ZERO_TERMINATED);
  curl_mime_type(part, "application/json");
  part = curl_mime_addpart(form);
  curl_mime_name(part, "photo");
  curl_mime_filedata(part, "/home/me/api/files/photo.png");
  curl_mime_filename(part, "photo.png");
  curl_mime_type(part, "image/png");
  curl_easy_setopt(curl, CURLOPT_MIMEPOST, form);

  CURLcode result = curl_easy_perform(curl);
  if (result != CURLE_OK)
    fprintf(stderr, "%s\n", curl_easy_strerror(result));
  curl_mime_free(form);
  curl_easy_cleanup(curl);
  curl_global_cleanup();
  return result == CURLE_OK ? 0 : 1;
}
