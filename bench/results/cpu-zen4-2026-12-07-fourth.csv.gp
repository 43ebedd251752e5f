# Charts of the tilejit-bench run in bench/results/cpu-zen4-2026-12-07-fourth.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen4-2026-12-07-fourth.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen4-2026-12-07-fourth.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 24.249
64 24.811
EOD
$t0_1 << EOD
64 25.2396
EOD
$t0_2 << EOD
64 38.7018
64 37.8634
EOD
$t0_3 << EOD
64 38.6774
EOD
$t0_4 << EOD
64 20.9885
EOD
$t0_5 << EOD
64 36.5835
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
64 5.90976
64 5.9449
EOD
$t1_1 << EOD
64 7.70849
EOD
$t1_2 << EOD
64 11.487
64 11.4951
EOD
$t1_3 << EOD
64 14.9626
EOD
$t1_4 << EOD
64 7.27865
EOD
$t1_5 << EOD
64 13.6128
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
64 8.41972
64 8.43657
EOD
$t2_1 << EOD
64 11.5018
EOD
$t2_2 << EOD
64 10.7087
64 10.4704
EOD
$t2_3 << EOD
64 20.5976
EOD
$t2_4 << EOD
64 7.26917
EOD
$t2_5 << EOD
64 12.9764
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
64 26.1113
64 22.7474
EOD
$t3_1 << EOD
64 28.7782
EOD
$t3_2 << EOD
64 33.9087
64 27.9024
EOD
$t3_3 << EOD
64 35.4337
EOD
$t3_4 << EOD
64 20.9566
EOD
$t3_5 << EOD
64 26.3006
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
"cpu/sum: tilejit width-1, 1 thread" 1.04085
"cpu/sum: tilejit width-1, 2 threads" 0.999368
"cpu/sum: tilejit cooperative, 1 thread" 0.845934
"cpu/sum: tilejit cooperative, 2 threads" 0.966198
"cpu/histogram: tilejit width-1, 1 thread" 1.30437
"cpu/histogram: tilejit width-1, 2 threads" 1.30257
"cpu/histogram: tilejit cooperative, 1 thread" 1.22435
"cpu/histogram: tilejit cooperative, 2 threads" 1.18422
"cpu/compact: tilejit width-1, 1 thread" 1.36605
"cpu/compact: tilejit width-1, 2 threads" 1.92345
"cpu/compact: tilejit cooperative, 1 thread" 0.861626
"cpu/compact: tilejit cooperative, 2 threads" 1.23934
"cpu/copy: tilejit width-1, 1 thread" 1.10214
"cpu/copy: tilejit width-1, 2 threads" 1.04497
"cpu/copy: tilejit cooperative, 1 thread" 0.921273
"cpu/copy: tilejit cooperative, 2 threads" 0.942594
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
"ptx/store_doubled_thread_indices" 17.4379
"ptx/multiply_elements" 13.9285
"ptx/row_products" 10.1398
"ptx/replace_rows" 13.1061
"ptx/histogram" 13.3769
"ptx/compact_values" 7.40055
"ptx/large" 1.65378
"ptx-first/store_doubled_thread_indices" 7.68884
"ptx-first/multiply_elements" 7.3728
"ptx-first/row_products" 5.99798
"ptx-first/replace_rows" 6.39121
"ptx-first/histogram" 6.57559
"ptx-first/compact_values" 5.00899
"ptx-first/large" 1.64402
"disk/store_doubled_thread_indices" 3.36495
"disk/store_doubled_thread_indices (CPU)" 10.3469
"disk/multiply_elements" 3.62292
"disk/multiply_elements (CPU)" 16.1969
"disk/row_products" 3.89513
"disk/row_products (CPU)" 8.53291
"disk/replace_rows" 3.73927
"disk/replace_rows (CPU)" 10.1804
"disk/histogram" 3.8829
"disk/histogram (CPU)" 9.25022
"disk/compact_values" 4.00619
"disk/compact_values (CPU)" 9.2979
"disk/large" 8.0616
"disk/large (CPU)" 31.516
"source/store_doubled_thread_indices" 17.4238
"source-first/store_doubled_thread_indices" 7.10243
"source/multiply_elements" 13.2849
"source-first/multiply_elements" 7.1653
"source/row_products" 9.71731
"source-first/row_products" 6.03143
"source/replace_rows" 13.4255
"source-first/replace_rows" 6.47864
"source/histogram" 12.4722
"source-first/histogram" 6.64985
"source/compact_values" 7.05541
"source-first/compact_values" 4.96495
"source/large" 1.59556
"source-first/large" 1.56825
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
