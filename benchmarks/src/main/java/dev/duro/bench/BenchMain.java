package dev.duro.bench;

import dev.duro.bench.compare.CompareMain;
import dev.duro.bench.load.EtcdCluster;
import dev.duro.bench.load.LoadGenerator;
import dev.duro.bench.load.LoadOptions;
import dev.duro.bench.load.SystemKind;
import dev.duro.bench.load.Workload;
import dev.duro.server.ServerConfig;
import java.util.Arrays;

/**
 * {@code ./duro bench ...}: {@code micro [regex] [JMH options]} runs the JMH suite and tabulates it
 * ({@link MicroSuite}); {@code compare [options]} runs the Duro / DUR / etcd comparison; anything else runs the
 * cluster load generator ({@code --help} lists its options).
 */
public final class BenchMain {
    private BenchMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("micro")) {
            System.exit(MicroSuite.run(Arrays.copyOfRange(args, 1, args.length), System.out));
            return;
        }
        if (args.length > 0 && args[0].equals("compare")) {
            System.exit(CompareMain.run(Arrays.copyOfRange(args, 1, args.length), System.out));
            return;
        }
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--workload") && args[i + 1].equals("list")) {
                System.out.print(Workload.list());
                return;
            }
        }
        LoadOptions options;
        try {
            options = LoadOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("duro bench: " + e.getMessage());
            System.err.println(LoadOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.println(LoadOptions.USAGE);
            return;
        }
        if (options.system() == SystemKind.ETCD && !EtcdCluster.isInstalled()) {
            System.err.println("duro bench: --system etcd needs " + EtcdCluster.ETCD_BINARY
                    + ", which is missing. Install Debian's etcd-server package: apt-get install -y etcd-server");
            System.exit(2);
            return;
        }
        try {
            System.exit(new LoadGenerator(options, System.out).run() ? 0 : 1);
        } catch (ServerConfig.InvalidConfigException e) {
            System.err.println("duro bench: --set: " + e.getMessage());
            System.exit(2);
        }
    }
}
