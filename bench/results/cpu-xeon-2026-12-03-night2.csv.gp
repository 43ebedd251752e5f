# Charts of the tilejit-bench run in /tmp/p/full2.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh /tmp/p/full2.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" /tmp/p/full2.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 28.7299
64 26.4809
EOD
$t0_1 << EOD
64 26.7724
EOD
$t0_2 << EOD
4 33.4141
64 47.9
EOD
$t0_3 << EOD
64 49.2119
EOD
$t0_4 << EOD
4 27.255
EOD
$t0_5 << EOD
4 44.8704
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
4 6.61751
64 4.73089
EOD
$t1_1 << EOD
64 4.14992
EOD
$t1_2 << EOD
4 8.88281
64 9.91685
EOD
$t1_3 << EOD
64 8.18035
EOD
$t1_4 << EOD
4 3.10129
EOD
$t1_5 << EOD
4 4.98484
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
4 5.3201
64 4.76803
EOD
$t2_1 << EOD
64 4.66649
EOD
$t2_2 << EOD
4 7.6343
64 8.26817
EOD
$t2_3 << EOD
64 12.293
EOD
$t2_4 << EOD
4 1.36174
EOD
$t2_5 << EOD
4 2.59382
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
4 27.0776
64 22.6857
EOD
$t3_1 << EOD
64 21.9824
EOD
$t3_2 << EOD
4 40.4945
64 50.815
EOD
$t3_3 << EOD
64 49.1389
EOD
$t3_4 << EOD
4 19.7033
EOD
$t3_5 << EOD
4 31.5807
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 1.01101
"cpu/sum: tilejit width-1, 2 threads" 1.02739
"cpu/sum: tilejit cooperative, 1 thread" 0.948665
"cpu/sum: tilejit cooperative, 2 threads" 1.34286
"cpu/histogram: tilejit width-1, 1 thread" 0.877198
"cpu/histogram: tilejit width-1, 2 threads" 0.824894
"cpu/histogram: tilejit cooperative, 1 thread" 0.468649
"cpu/histogram: tilejit cooperative, 2 threads" 0.561178
"cpu/compact: tilejit width-1, 1 thread" 0.978704
"cpu/compact: tilejit width-1, 2 threads" 1.48679
"cpu/compact: tilejit cooperative, 1 thread" 0.255961
"cpu/compact: tilejit cooperative, 2 threads" 0.339759
"cpu/copy: tilejit width-1, 1 thread" 0.969
"cpu/copy: tilejit width-1, 2 threads" 0.967015
"cpu/copy: tilejit cooperative, 1 thread" 0.727661
"cpu/copy: tilejit cooperative, 2 threads" 0.779877
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 14.5178
"ptx/multiply_elements" 11.9902
"ptx/row_products" 7.91229
"ptx/replace_rows" 10.2354
"ptx/histogram" 11.2872
"ptx/compact_values" 6.4016
"ptx/large" 1.76449
"ptx-first/store_doubled_thread_indices" 9.02086
"ptx-first/multiply_elements" 6.01926
"ptx-first/row_products" 5.89692
"ptx-first/replace_rows" 6.97908
"ptx-first/histogram" 6.6876
"ptx-first/compact_values" 5.14458
"ptx-first/large" 1.37753
"disk/store_doubled_thread_indices" 2.33538
"disk/store_doubled_thread_indices (CPU)" 5.04698
"disk/multiply_elements" 3.57465
"disk/multiply_elements (CPU)" 6.23777
"disk/row_products" 3.08005
"disk/row_products (CPU)" 7.20658
"disk/replace_rows" 2.71239
"disk/replace_rows (CPU)" 9.91361
"disk/histogram" 2.61352
"disk/histogram (CPU)" 7.96584
"disk/compact_values" 3.5401
"disk/compact_values (CPU)" 9.34209
"disk/large" 7.3277
"disk/large (CPU)" 33.4214
"source/store_doubled_thread_indices" 14.593
"source-first/store_doubled_thread_indices" 9.44826
"source/multiply_elements" 11.791
"source-first/multiply_elements" 7.71125
"source/row_products" 7.42723
"source-first/row_products" 6.29784
"source/replace_rows" 9.65739
"source-first/replace_rows" 7.41477
"source/histogram" 10.78
"source-first/histogram" 7.11295
"source/compact_values" 6.34882
"source-first/compact_values" 5.62428
"source/large" 1.75233
"source-first/large" 1.57845
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
