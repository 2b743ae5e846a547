(ns duro.jepsen.db
  "Duro on the hosts: install the server jar into the run directory, write each node's configuration, start
  nodes inside their network namespaces, and stop, kill, pause, resume and wipe them, always by process id.
  Node logs are written straight into the run directory (<run>/<node>/node.log, appended across restarts)."
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [duro.jepsen.net :as net]
            [duro.jepsen.util :as u])
  (:import (dev.duro.client DuroClient RetryPolicy)
           (java.io File)
           (java.lang ProcessBuilder$Redirect)
           (java.nio.file Files LinkOption)
           (java.nio.file.attribute FileAttribute)
           (java.time Duration)))

(def client-port 7100)
(def raft-port 7200)

(defn client-address [hosts node] (str (net/address hosts node) ":" client-port))

(defn node-dir ^File [test node] (io/file (:dir test) node))
(defn data-dir ^File [test node] (io/file (node-dir test node) "data"))
(defn config-file ^File [test node] (io/file (node-dir test node) "duro.properties"))
(defn log-file ^File [test node] (io/file (node-dir test node) "node.log"))

(defn- server-jar ^File [test] (io/file (:dir test) "duro-server.jar"))

;; With --tls: a CA and certificates for this run only, written by the server jar's `certs` command
;; (docs/security.md). Nodes are CN=node:<id>; the harness's clients present CN=jepsen.
(def tls-client "jepsen")
(defn tls-dir ^File [test] (io/file (:dir test) "tls"))
(defn- tls-file ^File [test name] (io/file (tls-dir test) name))

(defn write-certificates!
  "Writes the run's CA, node and client certificates (only with :tls); throws with the command's output on failure."
  [test]
  (when (:tls test)
    (let [{:keys [exit out err]} (u/sh ["java" "-cp" (.getAbsolutePath (server-jar test)) "dev.duro.server.tls.CertsCommand"
                                    "--dir" (.getAbsolutePath (tls-dir test))
                                    "--nodes" (str/join "," (:nodes test))
                                    "--clients" tls-client])]
      (when-not (zero? exit)
        (throw (ex-info (str "certificates for the run could not be written: " out err) {}))))))

(defn install!
  "Puts the built server jar into the run directory (a hard link when possible, else a copy)."
  [test]
  (let [src (io/file (or (System/getenv "DURO_JEPSEN_SERVER_JAR") "store-server/target/duro-server.jar"))
        dst (server-jar test)]
    (when-not (.exists src)
      (throw (ex-info (str "server jar not found: " src " (mvn package)") {})))
    (when-not (.exists dst)
      (try (Files/createLink (.toPath dst) (.toPath src))
           (catch Exception _ (io/copy src dst))))))

(defn config
  "The node's configuration, as properties text."
  [test node]
  (let [hosts (:hosts test)
        nodes (:nodes test)]
    (str/join
     "\n"
     (concat
      ["# written by the Jepsen harness"
       "cluster.name=jepsen"
       (str "cluster.nodes=" (str/join "," nodes))
       (str "cluster.partitions=" (:partitions test))
       (str "cluster.replication=" (count nodes))]
      ;; Leaders placed on the first node while it is up, so faults also move leaderships by transfers
      ;; (docs/replication.md, "Where the leaders sit"); --set cluster.preferred-leaders= leaves them to elections.
      (when-not (contains? (:settings test) "cluster.preferred-leaders")
        [(str "cluster.preferred-leaders=" (str/join "," nodes))])
      (for [n nodes]
        (str "node." n ".address=" (client-address hosts n) "\n"
             "node." n ".raft=" (net/address hosts n) ":" raft-port))
      (when (:tls test)
        [(str "tls.ca-file=" (.getAbsolutePath (tls-file test "ca.pem")))
         (str "tls.cert-file=" (.getAbsolutePath (tls-file test (str node ".pem"))))
         (str "tls.key-file=" (.getAbsolutePath (tls-file test (str node "-key.pem"))))])
      [(str "node.id=" node)
       (str "data.dir=" (.getAbsolutePath (data-dir test node)))
       (str "raft.snapshot-every-entries=" (:snapshot-every test))]
      ;; --set key=value, sorted by key; the node rejects an unknown key or a bad value at start
      (for [[k v] (sort (:settings test))]
        (str k "=" v))
      [""]))))

(defn write-configs! [test]
  (doseq [node (:nodes test)]
    (.mkdirs (node-dir test node))
    (spit (config-file test node) (config test node))))

(defn pid [test node]
  (some-> (get @(:procs test) node) (.pid)))

(defn alive? [test node]
  (boolean (some-> ^Process (get @(:procs test) node) (.isAlive))))

(defn start!
  "Starts the node inside its network namespace (ip netns exec replaces itself with java, so the process
  we hold is the server). Records the pid for jepsen/run's clean-up trap."
  [test node]
  (when-not (alive? test node)
    (let [log (log-file test node)
          cmd (net/in-ns-cmd (:hosts test) node
                             ["java" "-Xmx512m" "-XX:+UseSerialGC" "-XX:+ExitOnOutOfMemoryError"
                              "-Djava.util.concurrent.ForkJoinPool.common.parallelism=4"
                              "-jar" (.getAbsolutePath (server-jar test))
                              "--config" (.getAbsolutePath (config-file test node))])
          pb (doto (ProcessBuilder. ^java.util.List cmd)
               (.redirectErrorStream true)
               (.redirectOutput (ProcessBuilder$Redirect/appendTo log)))
          _ (spit log (str "\n==== harness: starting " node " at " (java.time.Instant/now) "\n") :append true)
          p (.start pb)]
      (swap! (:procs test) assoc node p)
      (when-let [f (System/getenv "DURO_JEPSEN_PIDS")]
        (spit f (str (.pid p) "\n") :append true))
      (.pid p))))

(defn signal!
  "Sends a signal (\"KILL\", \"TERM\", \"STOP\", \"CONT\") to the node's process, by pid."
  [test node sig]
  (when-let [^Process proc (get @(:procs test) node)]
    (when (.isAlive proc) ; never signal a pid that may have been reused
      (u/sh ["kill" (str "-" sig) (str (.pid proc))])
      (.pid proc))))

(defn kill!
  "kill -9, and waits until the process is gone."
  [test node]
  (when-let [^Process p (get @(:procs test) node)]
    (signal! test node "CONT")
    (signal! test node "KILL")
    (.waitFor p 10 java.util.concurrent.TimeUnit/SECONDS)))

(defn stop!
  "SIGTERM, then kill -9 after 10 s."
  [test node]
  (when-let [^Process p (get @(:procs test) node)]
    (signal! test node "CONT")
    (signal! test node "TERM")
    (when-not (.waitFor p 10 java.util.concurrent.TimeUnit/SECONDS)
      (kill! test node))))

(defn pause! [test node] (signal! test node "STOP"))
(defn resume! [test node] (signal! test node "CONT"))

(defn wipe!
  "Deletes the node's data directory (the node must be down)."
  [test node]
  (u/delete-tree! (data-dir test node)))

(defn client
  "A client of the cluster with bounded timeouts and no hidden retries of aborted transactions (the harness
  only uses begin/commit and beginReadOnly, which never re-run a transaction)."
  ^DuroClient [test]
  (let [b (-> (DuroClient/builder)
                (.seeds ^"[Ljava.lang.String;" (into-array String (map #(client-address (:hosts test) %) (:nodes test))))
                (.requestTimeout (Duration/ofMillis (:request-timeout-ms test 5000)))
                (.retryPolicy (RetryPolicy. 1 (Duration/ofMillis 2) (Duration/ofMillis 10)))
                (.ioThreads 1))]
    (when (:tls test)
      (.tls b (.toPath (tls-file test "ca.pem"))
            (.toPath (tls-file test (str tls-client ".pem")))
            (.toPath (tls-file test (str tls-client "-key.pem")))))
    (.build b)))

(defn await-ready!
  "Waits until every partition has a leader and a probe write commits."
  [test timeout-s]
  (with-open [c (client test)]
    (.awaitReady c (Duration/ofSeconds timeout-s))))

(defn- log-tail [test node lines]
  (let [all (str/split-lines (slurp (log-file test node)))]
    (str/join "\n" (drop (max 0 (- (count all) lines)) all))))

(defn await-started!
  "await-ready! in slices of 5 s, failing at once when a node process has exited: a node that refuses its
  configuration (a bad --set) exits at start, and its log says why."
  [test timeout-s]
  (let [deadline (+ (System/nanoTime) (* timeout-s 1000000000))]
    (loop []
      (when-let [dead (seq (remove #(alive? test %) (:nodes test)))]
        (throw (ex-info (str "node " (first dead) " exited during start-up:\n" (log-tail test (first dead) 15))
                        {:dead (vec dead)})))
      (when-not (try (await-ready! test 5)
                     true
                     (catch Exception e
                       (if (< (System/nanoTime) deadline) false (throw e))))
        (recur)))))

(defn probe-cuts
  "Asks every node on its own for a linearizable cut (the first step of a linearizable read-only transaction),
  so a node that cannot give one shows up by name: after the faults are healed every node must serve them
  again. A node gets `attempts` tries, a second apart (each waits up to the server's 2 s). The client only
  exposes this per node package-privately, hence reflection. Returns {node [cut ...] or \"error\"}."
  ([test] (probe-cuts test 15))
  ([test attempts]
   (with-open [c (client test)]
     (let [m (doto (.getDeclaredMethod DuroClient "snapshotVector"
                                       (into-array Class [dev.duro.core.wire.HostPort dev.duro.client.ReadConsistency
                                                          (Class/forName "[J")]))
               (.setAccessible true))
           probe (fn [n]
                   (try (vec (.invoke m c (object-array [(dev.duro.core.wire.HostPort. (net/address (:hosts test) n) (int client-port))
                                                        dev.duro.client.ReadConsistency/LINEARIZABLE
                                                        (long-array 0)])))
                        (catch java.lang.reflect.InvocationTargetException e (str (.getCause e)))
                        (catch Exception e (str e))))]
       (into (sorted-map)
             (for [n (:nodes test)]
               [n (loop [attempt 1]
                    (let [r (probe n)]
                      (if (or (vector? r) (>= attempt attempts))
                        r
                        (do (u/sleep-ms 1000) (recur (inc attempt))))))]))))))

(defn setup!
  "Installs, configures and starts every node, then waits for the cluster to serve."
  [test]
  (install! test)
  (write-certificates! test)
  (write-configs! test)
  (doseq [node (:nodes test)] (start! test node))
  (u/log "started nodes" (str/join " " (map #(str % "=" (pid test %)) (:nodes test))))
  (await-started! test 90))

(defn teardown!
  "Stops every node (SIGTERM, then -9) and removes the jar link; logs stay in the run directory."
  [test]
  (doseq [node (:nodes test)]
    (try (stop! test node) (catch Exception _ (kill! test node))))
  (.delete (server-jar test)))
