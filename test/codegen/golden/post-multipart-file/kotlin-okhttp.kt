// Content-Type left out: OkHttp sets it with the multipart boundary.
import java.io.File
import okhttp3.Headers.Companion.headersOf
import okhttp3.MediaType.Companion.toMediaTypeOrNull
import okhttp3.MultipartBody
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.RequestBody.Companion.asRequestBody
import okhttp3.RequestBody.Companion.toRequestBody

fun main() {
    val form = MultipartBody.Builder()
        .setType(MultipartBody.FORM)
        .addFormDataPart("title", "Holiday")
        .addPart(headersOf("Content-Disposition", "form-data; name=\"meta\""), "{\"a\":1}".toByteArray().toRequestBody("application/json".toMediaTypeOrNull()))
        .addFormDataPart("photo", "photo.png", File("/home/me/api/files/photo.png").asRequestBody("image/png".toMediaTypeOrNull()))
        .build()

    val request = Request.Builder()
        .url("https://api.example.com/upload")
        .method("POST", form)
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
