/**
 * The guest language {@code polygpu} and the launcher behind {@code bin/polygpu}. Embedders reach it through the
 * polyglot API ({@code Context.newBuilder("polygpu")}), so it exports its packages to nothing but the tests.
 */
module org.polygpu.lang {
    requires org.polygpu.runtime;
    requires org.graalvm.truffle;
    requires org.graalvm.polyglot;

    provides com.oracle.truffle.api.provider.TruffleLanguageProvider with org.polygpu.lang.PolygpuLanguageProvider;
}
