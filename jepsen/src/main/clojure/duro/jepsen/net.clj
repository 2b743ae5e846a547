(ns duro.jepsen.net
  "Hosts and the network between them. jepsen/run puts each Duro node in its own network namespace
  (<hosts>-n1, <hosts>-n2 ...) with address <subnet>.11, .12 ..., joined by veth pairs to a bridge in a
  separate switch namespace; the harness runs in the control namespace (<subnet>.2). This namespace runs
  commands inside a node's namespace and drives its nftables rules: partitions (drop input from chosen
  peers) and packet loss (drop a random share of input)."
  (:require [clojure.string :as str]
            [duro.jepsen.util :as u]))

(defn hosts
  "The hosts jepsen/run created, from its environment: {:id :subnet :nodes [\"n1\" ...] :control-address}."
  []
  (let [id (System/getenv "DURO_JEPSEN_HOSTS")
        subnet (or (System/getenv "DURO_JEPSEN_SUBNET") "10.77.0")
        n (parse-long (or (System/getenv "DURO_JEPSEN_NODES") "3"))]
    (when-not id
      (throw (ex-info "no hosts: start the harness through jepsen/run (it creates the network namespaces)" {})))
    {:id id
     :subnet subnet
     :nodes (mapv #(str "n" %) (range 1 (inc n)))
     :control-address (str subnet ".2")}))

(defn node-index [node] (parse-long (subs node 1)))

(defn address
  "The IP address of a node (\"n1\" -> 10.77.0.11)."
  [hosts node]
  (str (:subnet hosts) "." (+ 10 (node-index node))))

(defn netns [hosts node] (str (:id hosts) "-" node))

(defn in-ns-cmd
  "The command vector that runs cmd inside the node's network namespace."
  [hosts node cmd]
  (into ["ip" "netns" "exec" (netns hosts node)] cmd))

(defn exec!
  "Runs cmd inside the node's namespace; throws on failure."
  [hosts node cmd & opts]
  (apply u/sh! (in-ns-cmd hosts node cmd) opts))

;; ---- nftables ----

(def ^:private table "duro_jepsen")

(defn- rules!
  "Replaces the node's jepsen table with one input chain holding rule-lines (nft syntax), or removes it when
  there are none."
  [hosts node rule-lines]
  (u/sh (in-ns-cmd hosts node ["nft" "delete" "table" "inet" table]))
  (when (seq rule-lines)
    (exec! hosts node ["nft" "-f" "-"]
           :in (str "table inet " table " {\n"
                    "  chain input {\n"
                    "    type filter hook input priority 0; policy accept;\n"
                    (str/join (map #(str "    " % "\n") rule-lines))
                    "  }\n"
                    "}\n"))))

(defn heal!
  "Removes every rule from every node."
  [hosts]
  (doseq [node (:nodes hosts)]
    (rules! hosts node nil)))

(defn partition!
  "Cuts links: grudge maps a node to the nodes it must not hear from. Cutting is made symmetric. Clients (the
  control namespace) still reach every node."
  [hosts grudge]
  (let [sym (reduce-kv (fn [g a bs]
                         (reduce (fn [g b] (-> g (update a (fnil conj #{}) b) (update b (fnil conj #{}) a)))
                                 g bs))
                       {} grudge)]
    (doseq [node (:nodes hosts)]
      (let [cut (get sym node)]
        (rules! hosts node
                (when (seq cut)
                  [(str "ip saddr { " (str/join ", " (map #(address hosts %) (sort cut))) " } drop")]))))
    sym))

(defn loss!
  "Drops percent % of the packets every node receives from the subnet (both directions, as every node drops)."
  [hosts nodes percent]
  (doseq [node nodes]
    (rules! hosts node [(str "ip saddr " (:subnet hosts) ".0/24 numgen random mod 100 < " percent " drop")])))

;; ---- partition shapes ----

(defn halves
  "Random halves: a minority and a majority that cannot talk. Returns the grudge."
  [nodes ^java.util.Random rng]
  (let [shuffled (vec (u/shuffle-with rng nodes))
        k (quot (count nodes) 2)
        minority (set (take (max 1 k) shuffled))
        majority (remove minority shuffled)]
    (into {} (map (fn [a] [a (set majority)]) minority))))

(defn isolate
  "One node alone; everybody else together."
  [nodes node]
  {node (set (remove #{node} nodes))})

(defn bridge
  "Two sides that only one bridge node hears: for 3 nodes, the ends do not hear each other."
  [nodes ^java.util.Random rng]
  (let [shuffled (vec (u/shuffle-with rng nodes))
        n (count shuffled)
        mid (quot n 2)
        left (subvec shuffled 0 mid)
        right (subvec shuffled (inc mid))]
    (into {} (map (fn [a] [a (set right)]) left))))

(defn majorities-ring
  "Each node hears only its ring neighbours within a majority window (interesting for 5+ nodes)."
  [nodes ^java.util.Random rng]
  (let [shuffled (vec (u/shuffle-with rng nodes))
        n (count shuffled)
        reach (quot (inc (quot n 2)) 2)]
    (into {}
          (for [i (range n)]
            (let [near (set (for [d (range (- reach) (inc reach))] (shuffled (mod (+ i d) n))))]
              [(shuffled i) (set (remove near shuffled))])))))
