android {
    defaultConfig { buildConfigField("String", "PIN", "\"sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=\"") }
    buildTypes {
        getByName("release") { buildConfigField("String", "PIN", "\"sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\"") }
        debug { }
    }
    productFlavors { create("staging") { buildConfigField("String", "PIN", "\"sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=\"") } }
}
