# Charts of the tilejit-bench run in /tmp/p/full3.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh /tmp/p/full3.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" /tmp/p/full3.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 29.8413
64 26.8911
EOD
$t0_1 << EOD
64 27.4393
EOD
$t0_2 << EOD
4 34.0849
64 47.9744
EOD
$t0_3 << EOD
64 49.727
EOD
$t0_4 << EOD
4 29.4156
EOD
$t0_5 << EOD
4 49.0436
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
4 6.45137
64 4.43003
EOD
$t1_1 << EOD
64 3.92343
EOD
$t1_2 << EOD
4 6.8486
64 9.0978
EOD
$t1_3 << EOD
64 8.43175
EOD
$t1_4 << EOD
4 3.08984
EOD
$t1_5 << EOD
4 4.99997
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
4 5.3975
64 4.61737
EOD
$t2_1 << EOD
64 4.29861
EOD
$t2_2 << EOD
4 6.52654
64 7.03381
EOD
$t2_3 << EOD
64 10.3311
EOD
$t2_4 << EOD
4 1.46606
EOD
$t2_5 << EOD
4 2.53375
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
4 26.1596
64 20.9608
EOD
$t3_1 << EOD
64 20.9935
EOD
$t3_2 << EOD
4 30.4648
64 48.3979
EOD
$t3_3 << EOD
64 47.2596
EOD
$t3_4 << EOD
4 15.0053
EOD
$t3_5 << EOD
4 21.9538
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
"cpu/sum: tilejit width-1, 1 thread" 1.02038
"cpu/sum: tilejit width-1, 2 threads" 1.03653
"cpu/sum: tilejit cooperative, 1 thread" 0.985735
"cpu/sum: tilejit cooperative, 2 threads" 1.43886
"cpu/histogram: tilejit width-1, 1 thread" 0.885643
"cpu/histogram: tilejit width-1, 2 threads" 0.926791
"cpu/histogram: tilejit cooperative, 1 thread" 0.478943
"cpu/histogram: tilejit cooperative, 2 threads" 0.730072
"cpu/compact: tilejit width-1, 1 thread" 0.930965
"cpu/compact: tilejit width-1, 2 threads" 1.46878
"cpu/compact: tilejit cooperative, 1 thread" 0.271619
"cpu/compact: tilejit cooperative, 2 threads" 0.388222
"cpu/copy: tilejit width-1, 1 thread" 1.00156
"cpu/copy: tilejit width-1, 2 threads" 0.976481
"cpu/copy: tilejit cooperative, 1 thread" 0.573608
"cpu/copy: tilejit cooperative, 2 threads" 0.720627
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
"ptx/store_doubled_thread_indices" 13.6191
"ptx/multiply_elements" 11.6052
"ptx/row_products" 7.88676
"ptx/replace_rows" 9.54723
"ptx/histogram" 10.7278
"ptx/compact_values" 6.40623
"ptx/large" 1.70047
"ptx-first/store_doubled_thread_indices" 7.78405
"ptx-first/multiply_elements" 8.58911
"ptx-first/row_products" 5.5428
"ptx-first/replace_rows" 5.81193
"ptx-first/histogram" 7.65889
"ptx-first/compact_values" 7.66351
"ptx-first/large" 1.38403
"disk/store_doubled_thread_indices" 1.75738
"disk/store_doubled_thread_indices (CPU)" 7.55432
"disk/multiply_elements" 2.44989
"disk/multiply_elements (CPU)" 6.7786
"disk/row_products" 2.4398
"disk/row_products (CPU)" 6.5924
"disk/replace_rows" 2.38477
"disk/replace_rows (CPU)" 6.0792
"disk/histogram" 1.78883
"disk/histogram (CPU)" 8.09833
"disk/compact_values" 2.1439
"disk/compact_values (CPU)" 9.4948
"disk/large" 7.45126
"disk/large (CPU)" 25.7217
"source/store_doubled_thread_indices" 9.0363
"source-first/store_doubled_thread_indices" 5.97638
"source/multiply_elements" 7.49318
"source-first/multiply_elements" 6.53052
"source/row_products" 6.88703
"source-first/row_products" 3.72956
"source/replace_rows" 6.76601
"source-first/replace_rows" 4.74768
"source/histogram" 7.01304
"source-first/histogram" 4.55312
"source/compact_values" 4.86872
"source-first/compact_values" 6.29801
"source/large" 1.4363
"source-first/large" 1.31273
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
