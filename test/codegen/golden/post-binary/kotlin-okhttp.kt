import okhttp3.MediaType.Companion.toMediaTypeOrNull
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.RequestBody.Companion.toRequestBody
import okio.ByteString.Companion.decodeBase64

fun main() {
    val request = Request.Builder()
        .url("https://api.example.com/blobs")
        .method("POST", "AAEC/v8iXD8KQQ==".decodeBase64()!!.toRequestBody("application/octet-stream".toMediaTypeOrNull()))
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
